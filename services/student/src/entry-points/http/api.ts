import {
  contentTranslationsSchema,
  practiceQuestionSchema,
  questionKindSchema,
  sectionFiguresSchema,
  shownPercentageSchema,
  sectionSchema,
  languageSchema,
} from '@readiness/contracts';
import { adminClaims } from '@readiness/kit/auth';
import { badRequest } from '@readiness/kit/errors';
import { fileSource, uploadedFile, uploadedName } from '@readiness/kit/files';
import { parse } from '@readiness/kit/http';
import { operationsFor, serviceApi } from '@readiness/kit/openapi';
import { sendAttachment } from '@readiness/kit/storage';
import { z } from 'zod';
import {
  STARTED_MESSAGE,
  SUBMITTED_MESSAGE,
  type AttemptMessage,
  type Attempts,
} from '../../domain/attempts';
import type { Students } from '../../domain/students';
import {
  JSON_TYPE,
  MULTIPART_TYPE,
  admissionOf,
  admitted,
  bodyOf,
  browserLanguage,
  csvFile,
  csvRows,
  oneFile,
  submission,
  submissionOf,
  submitParts,
  toStudentJson,
} from './request-bodies';
import {
  MAX_ANSWERS,
  adminFileParams,
  attemptParams,
  activityBody,
  autosaveBody,
  extendBody,
  fileFields,
  idParams,
  idempotencyKey,
  importQuery,
  inviteBody,
  languageBody,
  listQuery,
  liveQuery,
  patchBody,
  questionParams,
  submitBody,
  tokenParams,
} from './schemas';

export interface StudentApiDeps {
  students: Students;
  attempts: Attempts;
  importMaxBytes: number;
  importMaxRows: number;
  uploadMaxBytes: number;
  /** Where uploads are streamed to while they are checked and stored. */
  spoolDir: string;
}

const TAG = 'Students';
const LIVE = 'Live attempts';
const FLOW = 'Student flow';

const studentOut = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  phoneNumber: z.string().optional(),
  status: z.enum(['invited', 'started', 'completed']),
  inviteToken: z.string(),
  inviteUrl: z.string(),
  extraTimePercent: z.number().int(),
  language: languageSchema
    .nullable()
    .describe("Chosen at invitation or by the student's last switch; null: the browser's"),
  createdAt: z.string(),
  invitedAt: z.string(),
  expiresAt: z.string(),
  expired: z.boolean(),
});

const paginationOut = z.object({
  currentPage: z.number().int(),
  totalPages: z.number().int(),
  totalResults: z.number().int(),
  hasNext: z.boolean(),
  hasPrev: z.boolean(),
});

const withMessage = z.object({ message: z.string(), student: studentOut });

const importOut = z.object({
  dryRun: z.boolean(),
  total: z.number().int(),
  valid: z.number().int(),
  imported: z.number().int(),
  problems: z.array(z.object({ line: z.number().int(), email: z.string(), message: z.string() })),
});

const answerOut = z.object({ questionId: z.string(), answer: z.string() });
const fileOut = z.object({
  questionId: z.string(),
  id: z.string(),
  originalName: z.string(),
  size: z.number().int(),
  mimetype: z.string(),
});
const attemptOut = z.object({
  id: z.string(),
  attemptNumber: z.number().int(),
  startedAt: z.string(),
  deadlineAt: z.string(),
  seq: z.number().int(),
  answers: z.array(answerOut),
  files: z.array(fileOut),
  paper: z
    .object({
      questionIds: z
        .array(z.string())
        .describe('The questions given, section by section, in the order shown'),
      options: z
        .record(z.string(), z.array(z.string()))
        .describe("Multiple-choice options' order by question, when options are shuffled"),
    })
    .nullable()
    .describe(
      "This attempt's own questions and order, fixed when it started (a section's draw, shuffling); null: every question in the version's order",
    ),
});
const resultOut = z.object({
  _id: z.string(),
  attemptId: z.string(),
  attemptNumber: z.number().int(),
  score: z.number().int(),
  totalPoints: z.number().int(),
  percentage: shownPercentageSchema,
  passed: z.boolean(),
  canRetake: z.boolean(),
  assessmentCode: z.string(),
  completedAt: z.string(),
  passingScore: z.number().int(),
  /** The signed certificate download link while it is valid (a passed result whose certificate was issued). */
  certificateUrl: z.string().nullable(),
  sections: z.array(sectionFiguresSchema),
});
const assessmentOut = z.object({
  versionId: z.string(),
  version: z.number().int(),
  title: z.string(),
  description: z.string(),
  timeLimit: z.number().int(),
  passingScore: z.number().int(),
  sections: z.array(
    sectionSchema.extend({
      questionCount: z
        .number()
        .int()
        .describe("How many of the section's questions each student answers (its draw, else all)"),
    }),
  ),
  questions: z
    .array(
      z.object({
        id: z.string(),
        type: questionKindSchema,
        question: z.string(),
        section: z.number().int(),
        points: z.number().int(),
        required: z.boolean(),
        options: z.array(z.object({ id: z.string(), text: z.string() })),
        fileInstructions: z.string(),
        hasDownloadableFile: z.boolean(),
        downloadableFile: z
          .object({
            originalName: z.string(),
            filename: z.string(),
            size: z.number().int(),
            url: z.string(),
            mimetype: z.string(),
          })
          .optional(),
      }),
    )
    .describe(
      "None before Start; once started, only the questions of the student's own paper (every question when the version draws nothing), in the version's order",
    ),
  practiceQuestion: practiceQuestionSchema
    .nullable()
    .describe('One untimed question to try before Start, with its answer: never scored, never saved'),
  translations: contentTranslationsSchema().describe(
    "Every language's texts; a question's only when the questions carry it (after Start, the paper's own)",
  ),
});
const startedOut = z.object({
  message: z.string(),
  attempt: attemptOut,
  assessment: assessmentOut.describe("The assessment with the attempt's own questions (its paper)"),
  serverNow: z.string(),
});
const liveAttemptOut = z.object({
  attemptId: z.string(),
  studentId: z.string(),
  name: z.string(),
  email: z.string(),
  attemptNumber: z.number().int(),
  section: z
    .object({ number: z.number().int(), title: z.string(), count: z.number().int() })
    .nullable()
    .describe(
      "The section the student's page is on (the one it last reported reaching); null before it reported one",
    ),
  answered: z.number().int(),
  total: z.number().int(),
  startedAt: z.string(),
  deadlineAt: z.string(),
  timeLeftSeconds: z.number().int(),
  savedAt: z.string().nullable(),
  presence: z
    .enum(['active', 'idle', 'offline'])
    .describe(
      'active: saved within 2 min; idle: the page is open, nothing saved for longer; offline: no page',
    ),
  idleMinutes: z.number().int(),
  extraTimePercent: z.number().int(),
  addedMinutes: z.number().int().describe('Minutes administrators added while it ran'),
});
const NOT_IN_PROGRESS = 'attempt_closed: submitted, ended, or past its deadline and grace; nothing changed';
const INVALID_LINK = 'Invalid or expired invitation link (unknown, expired and deleted alike)';

const operation = operationsFor<StudentApiDeps>();

/**
 * The student service's API, each operation declared once: the student flow by invitation token (no login), the
 * admin routes under /api/admin/students (the runtime's admin guard checks every /api/admin call) and the public
 * invitation look-up the flow starts from.
 */
export const studentApi = serviceApi<StudentApiDeps>({
  service: 'student',
  tags: [
    { name: TAG, description: 'Invited students and their invitation links' },
    { name: FLOW, description: 'The student flow by invitation token: attempts, autosave, files, submit' },
    {
      name: LIVE,
      description: 'Attempts in progress, and what an administrator may do to one while it runs',
    },
  ],
  operations: {
    'GET /api/student/{token}/assessment': operation({
      summary:
        'The assessment without its answer key, the attempt in progress (resume), the newest and the passed result; starts nothing',
      tags: [FLOW],
      params: tokenParams,
      responses: {
        200: {
          description: 'What the welcome page and the test need, with the server clock',
          body: z.object({
            student: z.object({
              name: z.string(),
              email: z.string(),
              extraTimePercent: z.number().int().describe('Extra time on top of the time limit, in percent'),
              timeLimitSeconds: z
                .number()
                .int()
                .describe("The student's own time: the limit plus their extra time, as Start sets it"),
            }),
            alreadyCompleted: z.boolean(),
            result: resultOut.nullable(),
            previousAttempt: z
              .object({ percentage: shownPercentageSchema, passed: z.boolean(), completedAt: z.string() })
              .nullable(),
            assessment: assessmentOut,
            attempt: attemptOut.nullable(),
            awaitingResult: z.boolean(),
            language: languageSchema.describe(
              "The language to show the pages in: the running attempt's, else the student's (chosen at invitation or by their last switch), else the best match of Accept-Language, else en",
            ),
            serverNow: z.string(),
          }),
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
      tags: [FLOW],
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
        404: INVALID_LINK,
        409: 'already_completed after a pass; awaiting_result while the last submission is scored',
      },
      before: () => [bodyOf(JSON_TYPE)],
      async handle({ params, req, answer }, { attempts }) {
        const started = await attempts.start(params.token, browserLanguage(req));
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
      tags: [FLOW],
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
      tags: [FLOW],
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
      async handle({ params, body }, { attempts }) {
        const saved = await attempts.autosave(params.token, body);
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
      tags: [FLOW],
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
    'POST /api/student/{token}/files': operation({
      summary:
        'Upload the answer file of a file question (multipart: attemptId, questionId, file); replaces the earlier one',
      tags: [FLOW],
      params: tokenParams,
      responses: {
        201: { description: 'The stored file', body: z.object({ file: fileOut }) },
        400: 'file_type: only pdf, doc, docx, txt, jpg, jpeg, png (by extension and content)',
        404: INVALID_LINK,
        409: 'attempt_closed',
        413: 'file_too_large; nothing is stored',
      },
      before: (deps) => [bodyOf(MULTIPART_TYPE), admitted(deps, { openAttempt: true }), oneFile(deps)],
      async handle({ params, req, res }, { attempts }) {
        const fields = parse(fileFields, req.body ?? {});
        const part = uploadedFile(req);
        if (!part) throw badRequest('Choose a file to upload', 'file_required');
        const file = await attempts.uploadFile(params.token, {
          attemptId: fields.attemptId,
          admitted: admissionOf(res),
          file: {
            questionId: fields.questionId,
            originalName: uploadedName(part),
            source: await fileSource(part),
          },
        });
        return { file };
      },
    }),
    'DELETE /api/student/{token}/files/{questionId}': operation({
      summary: 'Remove the answer file of a question from the attempt in progress',
      tags: [FLOW],
      params: questionParams,
      responses: {
        200: { description: 'Removed', body: z.object({ message: z.string() }) },
        404: INVALID_LINK,
      },
      async handle({ params }, { attempts }) {
        await attempts.removeFile(params.token, params.questionId);
        return { message: 'File removed' };
      },
    }),
    'POST /api/student/{token}/submit': operation({
      summary:
        'Submit (JSON, or multipart with answers as JSON text and files parts); idempotent by attempt id and Idempotency-Key',
      tags: [FLOW],
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
      tags: [FLOW],
      params: tokenParams,
      responses: {
        200: { description: 'Newest first', body: z.object({ results: z.array(resultOut) }) },
        404: INVALID_LINK,
      },
      handle: async ({ params }, { attempts }) => ({ results: await attempts.results(params.token) }),
    }),
    'GET /api/admin/students/{studentId}/attempts/{attemptId}/files/{questionId}': operation({
      summary: "Download a student's answer file (attachment, nosniff)",
      tags: [TAG],
      admin: true,
      params: adminFileParams,
      responses: { 200: { description: 'The file' }, 401: 'Not signed in', 404: 'File not found' },
      async handle({ params, res }, { attempts }) {
        const { file, body } = await attempts.adminFile(params);
        sendAttachment(res, file, body);
      },
    }),
    'GET /api/admin/students': operation({
      summary: 'Students, newest first: search (name or e-mail), status, page and limit (at most 100)',
      tags: [TAG],
      admin: true,
      query: listQuery,
      responses: {
        200: {
          description: 'One page',
          body: z.object({ students: z.array(studentOut), pagination: paginationOut }),
        },
        400: 'A query parameter is out of range',
        401: 'Not signed in',
      },
      async handle({ query: q }, { students }) {
        const { students: found, total } = await students.list({
          search: q.search || undefined,
          status: q.status === 'all' ? undefined : q.status,
          page: q.page,
          limit: q.limit,
        });
        const totalPages = Math.max(1, Math.ceil(total / q.limit));
        return {
          students: found.map(toStudentJson),
          pagination: {
            currentPage: q.page,
            totalPages,
            totalResults: total,
            hasNext: q.page < totalPages,
            hasPrev: q.page > 1,
          },
        };
      },
    }),
    'POST /api/admin/students/invite': operation({
      summary: 'Invite a student; the invitation mail is queued',
      tags: [TAG],
      admin: true,
      body: inviteBody,
      responses: {
        201: { description: 'The student', body: withMessage },
        400: 'A validation rule is broken',
        401: 'Not signed in',
        409: 'A student with this email is already invited',
      },
      async handle({ body, res }, { students }) {
        const student = await students.invite(body, adminClaims(res).sub);
        return { message: `Invitation sent to ${student.name}`, student: toStudentJson(student) };
      },
    }),
    'POST /api/admin/students/import': operation({
      summary:
        'Invite students from a CSV (multipart field file; name,email,phoneNumber,extraTimePercent,language)',
      tags: [TAG],
      admin: true,
      query: importQuery,
      responses: {
        200: { description: 'Every row problem by line; with dryRun nothing is saved', body: importOut },
        400: 'No file, or no header line naming name and email',
        401: 'Not signed in',
        409: 'An e-mail was invited meanwhile; nothing was imported',
        413: 'The file is too large',
      },
      before: (deps) => [csvFile(deps.importMaxBytes)],
      async handle({ query, req, res }, { students, importMaxRows }) {
        const file = uploadedFile(req);
        if (!file) throw badRequest('Choose a CSV file to import', 'file_required');
        const rows = csvRows(file.buffer.toString('utf8'), importMaxRows);
        return students.importRows(rows, { dryRun: query.dryRun, actorId: adminClaims(res).sub });
      },
    }),
    'POST /api/admin/students/{id}/resend-assessment': operation({
      summary: 'Resend the invitation; an unstarted invitation gets a new link and a new expiry',
      tags: [TAG],
      admin: true,
      params: idParams,
      responses: {
        200: { description: 'The student', body: withMessage },
        401: 'Not signed in',
        404: 'Student not found',
      },
      async handle({ params, res }, { students }) {
        const student = await students.resend(params.id, adminClaims(res).sub);
        return { message: `Invitation sent to ${student.name}`, student: toStudentJson(student) };
      },
    }),
    'PATCH /api/admin/students/{id}': operation({
      summary: 'Set the extra-time accommodation (0 to 300 percent)',
      tags: [TAG],
      admin: true,
      params: idParams,
      body: patchBody,
      responses: {
        200: { description: 'The student', body: z.object({ student: studentOut }) },
        400: 'Out of range',
        401: 'Not signed in',
        404: 'Student not found',
      },
      async handle({ params, body, res }, { students }) {
        const student = await students.setExtraTime(params.id, body.extraTimePercent, adminClaims(res).sub);
        return { student: toStudentJson(student) };
      },
    }),
    'DELETE /api/admin/students/{id}': operation({
      summary: 'Erase the student everywhere (student.student.deleted.v1); cannot be undone',
      tags: [TAG],
      admin: true,
      params: idParams,
      responses: {
        200: { description: 'Deleted', body: z.object({ message: z.string() }) },
        401: 'Not signed in',
        404: 'Student not found',
      },
      async handle({ params, res }, { students }) {
        await students.remove(params.id, adminClaims(res).sub);
        return { message: 'Student deleted successfully' };
      },
    }),
    'GET /api/student/{token}/events': operation({
      summary:
        "Server-sent events: the newest attempt's deadline and status (`attempt` events), now and whenever they change",
      tags: [FLOW],
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
        let ended = false;
        const opener = { token: params.token, address: req.ip ?? req.socket.remoteAddress ?? 'unknown' };
        const following = await attempts.streams.follow(opener, {
          send(message: AttemptMessage) {
            if (ended) return;
            if (!res.headersSent) {
              // Headers go with the first event: a refused link is still answered as JSON before it.
              res.writeHead(200, {
                'Content-Type': 'text/event-stream; charset=utf-8',
                'Cache-Control': 'no-store',
                'X-Accel-Buffering': 'no',
                // The stream ends only when the service drains: its socket goes with it, not back to keep-alive.
                Connection: 'close',
              });
              res.write('retry: 3000\n\n');
            }
            res.write(`event: attempt\ndata: ${JSON.stringify(message)}\n\n`);
          },
          ping() {
            if (!ended) res.write(': ping\n\n');
          },
          end() {
            if (ended) return;
            ended = true;
            res.end();
          },
        });
        if (!following) {
          res.status(204).end();
          return;
        }
        const stop = () => {
          ended = true;
          following.close();
        };
        // A page that left while its attempt was read is gone already: its close event will not come again.
        if (res.destroyed) return stop();
        req.socket.setTimeout(0);
        res.on('close', stop);
      },
    }),
    'GET /api/admin/live': operation({
      summary:
        'Attempts in progress, least time left first: section, answered, time left, last save and presence; search, page and limit (at most 100)',
      tags: [LIVE],
      admin: true,
      query: liveQuery,
      responses: {
        200: {
          description: 'One page, with the server clock the time left was computed from',
          body: z.object({
            attempts: z.array(liveAttemptOut),
            pagination: paginationOut,
            serverNow: z.string(),
          }),
        },
        400: 'A query parameter is out of range',
        401: 'Not signed in',
      },
      async handle({ query: q }, { attempts }) {
        const {
          attempts: found,
          total,
          now,
        } = await attempts.live({
          search: q.search || undefined,
          page: q.page,
          limit: q.limit,
        });
        const totalPages = Math.max(1, Math.ceil(total / q.limit));
        return {
          attempts: found,
          pagination: {
            currentPage: q.page,
            totalPages,
            totalResults: total,
            hasNext: q.page < totalPages,
            hasPrev: q.page > 1,
          },
          serverNow: now.toISOString(),
        };
      },
    }),
    'POST /api/admin/live/{attemptId}/extend': operation({
      summary:
        "Add minutes to an attempt in progress (1 to 600 at a time, at most ADDED_TIME_MAX_MULTIPLE times its time limit in all; several at once apply one after another); the student's page shows it within seconds",
      tags: [LIVE],
      admin: true,
      params: attemptParams,
      body: extendBody,
      responses: {
        200: {
          description: 'The new deadline',
          body: z.object({
            message: z.string(),
            attempt: z.object({
              attemptId: z.string(),
              deadlineAt: z.string(),
              timeLeftSeconds: z.number().int(),
            }),
          }),
        },
        400: 'Minutes must be a whole number from 1 to 600',
        401: 'Not signed in',
        404: 'Attempt not found',
        409: `${NOT_IN_PROGRESS}; or extension_limit: more than the most time an attempt can be given (the message says the limit and what is left), nothing changed`,
      },
      async handle({ params, body, res }, { attempts }) {
        const a = await attempts.extend({
          attemptId: params.attemptId,
          minutes: body.minutes,
          actorId: adminClaims(res).sub,
        });
        return {
          message: `Added ${body.minutes} ${body.minutes === 1 ? 'minute' : 'minutes'} for ${a.name}`,
          attempt: {
            attemptId: a.attemptId,
            deadlineAt: a.deadlineAt.toISOString(),
            timeLeftSeconds: Math.max(0, Math.floor((a.deadlineAt.getTime() - a.now.getTime()) / 1000)),
          },
        };
      },
    }),
    'POST /api/admin/live/{attemptId}/end': operation({
      summary:
        'End an attempt in progress now; it is scored from its last saved answers, exactly as the deadline job scores one',
      tags: [LIVE],
      admin: true,
      params: attemptParams,
      responses: {
        200: { description: 'Ended; its result follows', body: z.object({ message: z.string() }) },
        401: 'Not signed in',
        404: 'Attempt not found',
        409: NOT_IN_PROGRESS,
      },
      async handle({ params, res }, { attempts }) {
        const ended = await attempts.end({ attemptId: params.attemptId, actorId: adminClaims(res).sub });
        return { message: `Attempt ended for ${ended.name}; it is scored from the last saved answers` };
      },
    }),
    'GET /api/student/{token}': operation({
      summary: 'The student behind an invitation link; opening it changes nothing',
      tags: [TAG],
      params: tokenParams,
      responses: {
        200: {
          description: 'Name and e-mail',
          body: z.object({ student: z.object({ name: z.string(), email: z.string() }) }),
        },
        404: 'Invalid or expired invitation link (unknown, expired and deleted alike)',
      },
      // The link's look-up changes nothing (mail scanners follow links): only the student's own Start will.
      async handle({ params, res }, { students }) {
        const student = await students.byToken(params.token);
        res.setHeader('Cache-Control', 'no-store');
        return { student: { name: student.name, email: student.email } };
      },
    }),
  },
});
