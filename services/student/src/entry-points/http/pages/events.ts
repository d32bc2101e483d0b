import { eventStream } from '../event-stream';
import { TAGS, operation } from '../operation';
import { INVALID_LINK, tokenParams } from './invitation-link';

/** The student's page following its attempt: its deadline and status as they change. */
export const eventOperations = {
  'GET /api/student/{token}/events': operation({
    summary:
      "Server-sent events: the newest attempt's deadline and status (`attempt` events), now and whenever they change",
    tags: [TAGS.flow.name],
    params: tokenParams,
    responses: {
      200: {
        description:
          'text/event-stream: `attempt` events ({ attemptId, deadlineAt, status: in_progress | closed, serverNow, addedMinutes }) within a few seconds of an administrator adding time or ending the attempt; a comment every 20 s. The stream ends after a `closed` event (submitted, ended by an administrator, or finalised at the deadline)',
      },
      204: 'The student never started: nothing to follow (EventSource stops)',
      404: INVALID_LINK,
      429: 'Too many streams open for this link, from this client address, or on this replica (see Retry-After)',
    },
    async handle({ params, req, res }, { attempts }) {
      const stream = eventStream(req, res, { event: 'attempt', retryMs: 3000 });
      const opener = { token: params.token, address: req.ip ?? req.socket.remoteAddress ?? 'unknown' };
      const following = await attempts.streams.follow(opener, stream.sink);
      if (!following) {
        res.status(204).end();
        return;
      }
      stream.hold(following);
    },
  }),
};
