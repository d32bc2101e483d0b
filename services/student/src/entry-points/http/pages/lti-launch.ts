import { LTI_LAUNCH_TICKET_PATH } from '@readiness/contracts';
import { AppError } from '@readiness/kit/errors';
import { sendErrorPage } from '@readiness/kit/http';
import { LAUNCH_REFUSED_MESSAGE } from '../../../domain/students';
import { TAGS, operation } from '../operation';

/** The ticket from the query; read by the handler, so that even its absence is answered with a page. */
function ticketOf(query: unknown): string {
  const ticket = (query as Record<string, unknown>).ticket;
  if (typeof ticket === 'string' && ticket.length > 0 && ticket.length <= 4096) return ticket;
  throw new AppError('invalid_launch_ticket', LAUNCH_REFUSED_MESSAGE, 400);
}

/**
 * The end of a learner's launch from an LMS: the browser brings the integrations service's sealed ticket here and
 * is sent on to the student's own page. A refusal is a page the learner reads, not JSON.
 */
export const ltiLaunchOperations = {
  [`GET ${LTI_LAUNCH_TICKET_PATH}`]: operation({
    summary:
      "A learner's LMS launch ticket: finds or creates the student of that LMS identity, then their page",
    tags: [TAGS.flow.name],
    responses: {
      303: { description: "To the student's own page, /assessment/{token}" },
      400: {
        description: 'A ticket (query `ticket`) missing, not opening, expired or used already: an HTML page',
      },
    },
    async handle({ req, res }, { students, logger }) {
      try {
        const { pageUrl } = await students.acceptLtiLaunch(ticketOf(req.query));
        res.setHeader('Referrer-Policy', 'no-referrer');
        res.redirect(303, pageUrl);
      } catch (err) {
        sendErrorPage(res, err, 'Launch refused', (e) =>
          logger.error({ err: e }, 'an LMS launch ticket failed'),
        );
      }
    },
  }),
};
