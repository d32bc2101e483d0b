import { useEffect, useRef } from 'react';
import { useT } from '../../../i18n/react';
import { notify } from '../../../lib/toast';
import { openEventStream, streamGaveUp } from '../../../lib/api-fetch';
import type { Attempt } from '../api/types';
import { clockOffset, timeLeft } from '../clock';

/**
 * One `attempt` message of `GET /api/student/{token}/events`: the attempt as the server holds it, sent when the
 * stream opens and whenever its deadline or status changes (an administrator added time or ended it).
 */
export interface AttemptEvent {
  attemptId: string;
  deadlineAt: string;
  status: 'in_progress' | 'closed';
  serverNow: string;
  /** Minutes administrators have added to this attempt so far. */
  addedMinutes: number;
}

export interface AttemptEventHandlers {
  /** The deadline moved later, with the clock offset measured from the same message. */
  onExtended(deadlineAt: string, offset: number): void;
  /** The attempt ended without this page: an administrator ended it, or the server's deadline job did. */
  onClosed(): void;
}

function parse(data: unknown): AttemptEvent | null {
  if (typeof data !== 'string') return null;
  try {
    const event = JSON.parse(data) as Partial<AttemptEvent> | null;
    return event &&
      typeof event.attemptId === 'string' &&
      typeof event.deadlineAt === 'string' &&
      !Number.isNaN(Date.parse(event.deadlineAt)) &&
      (event.status === 'in_progress' || event.status === 'closed')
      ? (event as AttemptEvent)
      : null;
  } catch {
    return null;
  }
}

const REOPEN_MIN_MS = 3000;
const REOPEN_MAX_MS = 60_000;

/**
 * Follows what administrators do to the running attempt, over the server's event stream: more time
 * moves the deadline and says so, an ended attempt is handed to `onClosed`. An extension never shortens: a
 * deadline earlier than the one the page counts down to is ignored. The stream's token in the path is the
 * credential, so the browser's own `EventSource` serves; where there is none, the page keeps its own clock as
 * before.
 */
export function useAttemptEvents(
  token: string,
  attempt: Pick<Attempt, 'id' | 'deadlineAt'>,
  handlers: AttemptEventHandlers,
): void {
  const t = useT();
  // The handlers and the words of the moment, without reopening the stream when they change.
  const latest = useRef({ ...handlers, t });
  const deadline = useRef(Date.parse(attempt.deadlineAt));
  useEffect(() => {
    latest.current = { ...handlers, t };
  });
  useEffect(() => {
    deadline.current = Math.max(deadline.current, Date.parse(attempt.deadlineAt));
  }, [attempt.deadlineAt]);

  const attemptId = attempt.id;
  useEffect(() => {
    let source: EventSource | undefined;
    let reopen: ReturnType<typeof setTimeout> | undefined;
    let reopenMs = REOPEN_MIN_MS;
    let over = false;

    const onAttempt = (message: MessageEvent) => {
      const event = parse(message.data);
      if (!event || event.attemptId !== attemptId || over) return;
      if (event.status === 'closed') {
        over = true;
        source?.close();
        latest.current.onClosed();
        return;
      }
      const next = Date.parse(event.deadlineAt);
      if (next <= deadline.current) return;
      const minutes = Math.max(1, Math.round((next - deadline.current) / 60_000));
      deadline.current = next;
      const offset = clockOffset(event.serverNow, Date.now());
      latest.current.onExtended(event.deadlineAt, offset);
      // A deadline still behind the server's clock gives nothing to use: the time stays up.
      if (timeLeft(event.deadlineAt, offset) > 0) notify.info(latest.current.t('test.extended', { minutes }));
    };
    // The browser reconnects a dropped stream by itself, but gives up for good on an answer that is not a stream
    // (a 502 from the gateway while the service restarts): the page opens it again, less often each time.
    const onError = () => {
      if (over || !streamGaveUp(source)) return;
      reopen = setTimeout(open, reopenMs);
      reopenMs = Math.min(reopenMs * 2, REOPEN_MAX_MS);
    };
    const onOpen = () => {
      reopenMs = REOPEN_MIN_MS;
    };
    function open() {
      source = openEventStream('/api/student/{token}/events', { path: { token } });
      if (!source) return;
      source.addEventListener('attempt', onAttempt);
      source.addEventListener('error', onError);
      source.addEventListener('open', onOpen);
    }

    open();
    return () => {
      over = true;
      clearTimeout(reopen);
      source?.close();
    };
  }, [token, attemptId]);
}
