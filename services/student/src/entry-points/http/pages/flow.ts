import { languageSchema } from '@readiness/contracts';
import { badRequest } from '@readiness/kit/errors';
import { parse } from '@readiness/kit/http';
import { z } from 'zod';
import { IN_LINE_MESSAGE, STARTED_MESSAGE, SUBMITTED_MESSAGE } from '../../../domain/attempts';
import { TAGS, operation } from '../operation';
import { activityBody } from './activity';
import { admitted, submitParts } from './answer-files';
import { INVALID_LINK, browserLanguage, languageBody, tokenParams } from './invitation-link';
import { JSON_TYPE, MULTIPART_TYPE, bodyOf, submissionOf } from './media-types';
import { resultOut, startedOut, waitingOut, welcomeOut } from './page-schemas';
import { MAX_ANSWERS, autosaveBody, idempotencyKey, submitBody, submission } from './student-answers';

/** When a waiting page should look again: soon near the front, at most every 10 s (it extrapolates between). */
const checkAfter = (ahead: number, estimateSeconds: number | null) =>
  Math.min(10, Math.max(2, Math.ceil((estimateSeconds ?? 10) / 4), ahead > 100 ? 8 : 2));

/**
 * The student's flow by invitation token (no login): the link's look-up, which changes nothing, the welcome page,
 * Start, the language switch, autosave, what the page saw, Submit and the results.
 */
export const flowOperations = {
  'GET /api/student/{token}': operation({
    summary: 'The student behind an invitation link; opening it changes nothing',
    tags: [TAGS.students.name],
    params: tokenParams,
    responses: {
      200: {
        description: 'Name and e-mail',
        body: z.object({ student: z.object({ name: z.string(), email: z.string() }) }),
      },
      404: INVALID_LINK,
    },
    // The link's look-up changes nothing (mail scanners follow links): only the student's own Start will.
    async handle({ params, res }, { students }) {
      const student = await students.byToken(params.token);
      res.setHeader('Cache-Control', 'no-store');
      return { student: { name: student.name, email: student.email } };
    },
  }),
  'GET /api/student/{token}/assessment': operation({
    summary:
      'The assessment without its answer key, the attempt in progress (resume), the newest and the passed result; starts nothing',
    tags: [TAGS.flow.name],
    params: tokenParams,
    responses: {
      200: {
        description: 'What the welcome page and the test need, with the server clock',
        body: welcomeOut,
      },
      404: `${INVALID_LINK}; or no_assessment when no version is active yet`,
    },
    async handle({ params, req }, { attempts }) {
      const page = await attempts.assessment(params.token, browserLanguage(req));
      return { ...page, serverNow: page.serverNow.toISOString() };
    },
  }),
  'POST /api/student/{token}/start': operation({
    summary: 'Start an attempt (deadline fixed now), or return the one in progress',
    tags: [TAGS.flow.name],
    params: tokenParams,
    responses: {
      200: {
        description: 'The attempt already in progress, with the questions of its paper',
        body: startedOut,
      },
      201: {
        description: 'A new attempt, with the questions of its paper',
        body: startedOut,
      },
      202: {
        description:
          'In line to start (the waiting room, at the peak): the ticket, its place and the line; no attempt yet and no time running. Asking again keeps the ticket; start once GET /api/waiting-room serves it',
        body: waitingOut,
      },
      404: INVALID_LINK,
      409: 'already_completed after a pass; awaiting_result while the last submission is scored',
    },
    before: () => [bodyOf(JSON_TYPE)],
    async handle({ params, req, res, answer }, { attempts }) {
      const started = await attempts.start(params.token, browserLanguage(req));
      if ('waiting' in started) {
        const { ticket, ahead, estimateSeconds, line } = started.waiting;
        const checkAfterSeconds = checkAfter(ahead, estimateSeconds);
        res.setHeader('Retry-After', String(checkAfterSeconds));
        res.setHeader('Cache-Control', 'no-store');
        return answer(202, {
          message: IN_LINE_MESSAGE,
          waiting: { ticket, ahead, estimateSeconds, checkAfterSeconds },
          line,
          serverNow: new Date().toISOString(),
        });
      }
      return answer(started.created ? 201 : 200, {
        message: STARTED_MESSAGE,
        attempt: started.attempt,
        assessment: started.assessment,
        serverNow: started.serverNow.toISOString(),
      });
    },
  }),
  'PUT /api/student/{token}/language': operation({
    summary:
      "The student's language switch: kept with the student and the attempt in progress (its mail and certificate follow it); answers untouched",
    tags: [TAGS.flow.name],
    params: tokenParams,
    body: languageBody,
    responses: {
      200: { description: 'The language kept', body: z.object({ language: languageSchema }) },
      400: 'Language must be one of en, es, fr, pt, ar',
      404: INVALID_LINK,
    },
    before: () => [bodyOf(JSON_TYPE)],
    async handle({ params, body }, { attempts }) {
      return attempts.switchLanguage(params.token, body.language);
    },
  }),
  'PUT /api/student/{token}/answers': operation({
    summary: 'Autosave the answers so far; the newest seq wins, an older one is ignored',
    tags: [TAGS.flow.name],
    params: tokenParams,
    body: autosaveBody,
    responses: {
      200: {
        description: 'The newest sequence the server holds',
        body: z.object({ seq: z.number().int(), savedAt: z.string(), serverNow: z.string() }),
      },
      400: 'An unknown question, a question this attempt was not given (question_not_given) or an answer not valid for its question; nothing is saved',
      404: INVALID_LINK,
      409: 'attempt_closed: submitted, finalised or past the deadline and its grace',
    },
    before: () => [bodyOf(JSON_TYPE)],
    async handle({ params, body }, { attempts, waitingRoom }) {
      const began = performance.now();
      const saved = await attempts.autosave(params.token, body);
      // The students already taking the test are served first: slow autosaves slow the line.
      waitingRoom.served(performance.now() - began);
      return {
        seq: saved.seq,
        savedAt: saved.savedAt.toISOString(),
        serverNow: saved.serverNow.toISOString(),
      };
    },
  }),
  'POST /api/student/{token}/activity': operation({
    summary:
      "What the student's page saw of its attempt (sections reached, the page hidden, offline periods, pastes) and which device it runs on, for the attempt's timeline",
    tags: [TAGS.flow.name],
    params: tokenParams,
    body: activityBody,
    responses: {
      204: 'Recorded (a device not seen before on this attempt is recorded as a second device)',
      400: 'An entry that is not a known fact, or a field out of range (a period longer than the attempt is kept as long as the attempt)',
      404: INVALID_LINK,
      409: 'attempt_closed: submitted, finalised or past the deadline and its grace',
    },
    before: () => [bodyOf(JSON_TYPE)],
    async handle({ params, body, res }, { attempts }) {
      await attempts.activity(params.token, body);
      res.status(204).end();
    },
  }),
  'POST /api/student/{token}/submit': operation({
    summary:
      'Submit (JSON, or multipart with answers as JSON text and files parts); idempotent by attempt id and Idempotency-Key',
    tags: [TAGS.flow.name],
    params: tokenParams,
    body: submitBody,
    responses: {
      200: {
        description: 'Submitted and scored within a few seconds',
        body: z.object({ message: z.string(), result: resultOut, serverNow: z.string() }),
      },
      202: {
        description: 'Submitted; the result follows (GET …/results)',
        body: z.object({
          message: z.string(),
          attemptId: z.string(),
          status: z.literal('scoring'),
          serverNow: z.string(),
        }),
      },
      400: 'An unknown question, an invalid answer or a refused file',
      404: INVALID_LINK,
      409: 'already_completed after a pass with nothing in progress',
      413: 'file_too_large',
      415: 'unsupported_media_type: no body, or one that is not JSON or multipart; nothing is submitted',
    },
    readsOwnBody: true,
    before: (deps) => [
      submissionOf(JSON_TYPE, MULTIPART_TYPE),
      admitted(deps, { openAttempt: false }),
      submitParts(deps),
    ],
    async handle({ params, req, res, answer }, { attempts }) {
      const key = parse(idempotencyKey, req.get('idempotency-key'));
      const { body, files } = await submission(req);
      if (body.answers.length > MAX_ANSWERS) throw badRequest(`At most ${MAX_ANSWERS} answers`);
      // RFC 7240: a client that polls for the result itself (a load generator, an integration) is answered at commit.
      const respondAsync = /(^|[\s,;])respond-async(\s*(,|;|$))/i.test(req.get('prefer') ?? '');
      const outcome = await attempts.submit(params.token, {
        attemptId: body.attemptId,
        idempotencyKey: key,
        answers: body.answers,
        files,
        respondAsync,
      });
      // Scored in time: the first declared status (200); else 202, the result to follow.
      if (outcome.kind === 'result') {
        return {
          message: SUBMITTED_MESSAGE,
          result: outcome.result,
          serverNow: outcome.serverNow.toISOString(),
        };
      }
      if (respondAsync) res.setHeader('Preference-Applied', 'respond-async');
      return answer(202, {
        message: SUBMITTED_MESSAGE,
        attemptId: outcome.attemptId,
        status: 'scoring',
        serverNow: outcome.serverNow.toISOString(),
      });
    },
  }),
  'GET /api/student/{token}/results': operation({
    summary: "The student's results, newest first",
    tags: [TAGS.flow.name],
    params: tokenParams,
    responses: {
      200: { description: 'Newest first', body: z.object({ results: z.array(resultOut) }) },
      404: INVALID_LINK,
    },
    handle: async ({ params }, { attempts }) => ({ results: await attempts.results(params.token) }),
  }),
};
