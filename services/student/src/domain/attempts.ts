import { randomUUID } from 'node:crypto';
import type { EventPayload } from '@readiness/contracts';
import { timestampDate } from '@readiness/contracts';
import type { Database, Tx } from '@readiness/kit/db';
import { AppError, badRequest, conflict, notFound, notYet } from '@readiness/kit/errors';
import { detectFile, type FileExtension, type FileSource } from '@readiness/kit/files';
import type { Logger } from '@readiness/kit/logger';
import { enqueue } from '@readiness/kit/outbox';
import type { ObjectStore } from '@readiness/kit/storage';
import {
  adminFile,
  assessmentPage,
  claimOverdue,
  closeAttempt,
  deleteFile,
  deleteResult,
  insertAttempt,
  insertResult,
  lockStanding,
  markStarted,
  resultOf,
  resultsOf,
  saveCertificateLink,
  saveAnswers,
  studentAttempt,
  upsertFile,
  type AttemptFile,
  type AttemptRecord,
  type StudentResultBody,
  type TokenStudent,
} from '../data-access/attempts-repository';
import { isStudentId } from '../data-access/students-repository';
import { activeVersionSummary, findVersion } from '../data-access/versions-repository';
import { ATTEMPT_STARTED, ATTEMPT_SUBMITTED, startedPayload, submittedPayload } from './events';
import { INVALID_INVITATION_MESSAGE } from './students';
import { tokenHash } from './tokens';
import {
  FILE_UPLOADED,
  boundedCache,
  checkAnswers,
  studentView,
  type Answer,
  type AssessmentVersion,
  type StudentAssessment,
} from './versions';

export const STARTED_MESSAGE = 'Assessment started. Good luck!';
export const SUBMITTED_MESSAGE = 'Assessment submitted successfully!';
export const ALREADY_COMPLETED_MESSAGE = 'Assessment already completed!';
export const NO_ASSESSMENT_MESSAGE = 'No assessment found';
export const FILE_TYPE_MESSAGE =
  'Only PDF, Word (doc, docx), text and image (jpg, jpeg, png) files can be uploaded';

/** The answer files a student may upload (SPEC §5). */
export const ANSWER_FILE_TYPES: readonly FileExtension[] = [
  'pdf',
  'doc',
  'docx',
  'txt',
  'jpg',
  'jpeg',
  'png',
];

/** Where a student's answer files live in the bucket; erasing the student removes the whole prefix. */
export const answerPrefix = (studentId: string) => `answers/${studentId}/`;

export const fileTooLarge = (maxBytes: number) =>
  new AppError(
    'file_too_large',
    `The file is larger than ${Math.round((maxBytes / (1024 * 1024)) * 10) / 10} MB`,
    413,
  );

const invalidLink = () => notFound(INVALID_INVITATION_MESSAGE, 'not_found');
/** The time an attempt gets: the version's limit plus the student's extra time, in whole seconds. */
export const attemptSeconds = (timeLimitMinutes: number, extraTimePercent: number) =>
  Math.round(timeLimitMinutes * 60 * (1 + extraTimePercent / 100));

const attemptNotFound = () => notFound('Attempt not found', 'attempt_not_found');
const attemptClosed = () =>
  conflict('This attempt is closed: it was submitted or its time is over', 'attempt_closed');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A student answers 404 alike when the link is unknown, deleted or expired before it was ever started. */
function usable(student: TokenStudent | undefined, now = Date.now()): TokenStudent {
  if (!student || (student.status === 'invited' && student.expiresAt.getTime() <= now)) throw invalidLink();
  return student;
}

export interface AttemptJson {
  id: string;
  attemptNumber: number;
  startedAt: string;
  deadlineAt: string;
  seq: number;
  answers: Answer[];
  files: Array<{ questionId: string; id: string; originalName: string; size: number; mimetype: string }>;
}

export const attemptJson = (a: AttemptRecord, files: AttemptFile[]): AttemptJson => ({
  id: a.id,
  attemptNumber: a.attemptNumber,
  startedAt: a.startedAt.toISOString(),
  deadlineAt: a.deadlineAt.toISOString(),
  seq: a.seq,
  answers: a.answers,
  files: files.map((f) => ({
    questionId: f.questionId,
    id: f.id,
    originalName: f.originalName,
    size: f.size,
    mimetype: f.mimetype,
  })),
});

export interface NewFile {
  questionId: string;
  originalName: string;
  /** Where the upload's bytes are (a spool file for the student's uploads): streamed to the bucket, never held. */
  source: FileSource;
}

export type SubmitOutcome =
  | { kind: 'result'; result: StudentResultBody; serverNow: Date }
  | { kind: 'scoring'; attemptId: string; serverNow: Date };

/**
 * The student side of the service: the assessment a token sees, its attempts (start, autosave, files, submit),
 * the deadline job, and the copy of results the results service records.
 */
export function createAttempts(deps: {
  database: Database;
  storage: ObjectStore;
  logger: Logger;
  notifyOutbox(): void;
  /** Seconds after the deadline during which a submit is still taken whole. */
  graceSeconds: number;
  /** How long a submit waits for its result before answering 202. */
  resultWaitMs: number;
  uploadMaxBytes: number;
}) {
  const { database, storage, graceSeconds } = deps;
  const versions = boundedCache<AssessmentVersion>(32);
  const views = boundedCache<StudentAssessment>(32);
  const waiters = new Map<string, Set<() => void>>();

  const remember = (v: AssessmentVersion) => {
    versions.set(v.versionId, v);
    const view = studentView(v);
    views.set(v.versionId, view);
    return view;
  };

  /**
   * The version, from memory or read once; inside a transaction pass `tx`, so a cold cache never asks the pool
   * for a second connection while the transaction holds one (a full pool would wait on itself).
   */
  async function version(versionId: string, tx?: Tx): Promise<AssessmentVersion> {
    const cached = versions.get(versionId);
    if (cached) return cached;
    const found = await findVersion(tx ?? database.db, versionId);
    if (!found) throw new AppError('version_missing', 'The assessment version is not known', 500);
    remember(found);
    return found;
  }

  const closedAt = (a: AttemptRecord) => a.deadlineAt.getTime() + graceSeconds * 1000;
  const isOpen = (a: AttemptRecord, now: Date) => a.status === 'in_progress' && now.getTime() <= closedAt(a);

  /** Stores checked files under server-generated keys; a refused file stores nothing (all are checked first). */
  async function storeFiles(studentId: string, attemptId: string, files: NewFile[]) {
    const checked = files.map((f) => {
      const kind = detectFile(f.originalName, f.source, ANSWER_FILE_TYPES);
      if (!kind) throw new AppError('file_type', FILE_TYPE_MESSAGE, 400);
      return {
        ...f,
        ...kind,
        size: f.source.size,
        objectKey: `${answerPrefix(studentId)}${attemptId}/${randomUUID()}.${kind.extension}`,
      };
    });
    const stored: typeof checked = [];
    try {
      for (const f of checked) {
        await storage.put(f.objectKey, f.source.open(), {
          contentType: f.mimetype,
          size: f.source.size,
          sha256: f.source.sha256,
        });
        stored.push(f);
      }
    } catch (err) {
      await removeObjects(stored.map((f) => f.objectKey));
      throw err;
    }
    return checked;
  }

  async function removeObjects(keys: Array<string | undefined>) {
    for (const key of keys) {
      if (!key) continue;
      await storage.remove(key).catch((err: unknown) => {
        deps.logger.warn({ err, key }, 'removing an answer file failed; it stays in the bucket');
      });
    }
  }

  function checkFileQuestion(v: AssessmentVersion, questionId: string) {
    const q = v.questions.find((x) => x.id === questionId);
    if (!q || q.type !== 'file_upload') {
      throw badRequest('This question does not take a file', 'not_a_file_question');
    }
  }

  /** Ends an attempt in its transaction and queues the submitted event; returns the closed attempt. */
  async function close(
    tx: Tx,
    a: AttemptRecord,
    student: { name: string; email: string },
    how: {
      answers: Answer[];
      finalisedBy: 'student' | 'deadline';
      late: boolean;
      idempotencyKey: string | null;
    },
  ) {
    const closed = await closeAttempt(tx, {
      attemptId: a.id,
      answers: how.answers,
      finalisedBy: how.finalisedBy,
      gradedFromAutosave: how.late,
      idempotencyKey: how.idempotencyKey,
    });
    if (!closed) return undefined;
    const v = await version(a.versionId, tx);
    const fileQuestions = new Set(v.questions.filter((q) => q.type === 'file_upload').map((q) => q.id));
    // A late submit counts only the files uploaded before the deadline, as it counts the answers saved before it.
    const files = closed.files.filter(
      (f) => fileQuestions.has(f.questionId) && (!how.late || f.uploadedAt <= a.deadlineAt),
    );
    const answers = [
      ...how.answers.filter((x) => !fileQuestions.has(x.questionId)),
      ...files.map((f) => ({ questionId: f.questionId, answer: FILE_UPLOADED })),
    ];
    const end = Math.min((closed.submittedAt ?? new Date()).getTime(), closed.deadlineAt.getTime());
    await enqueue(tx, {
      name: ATTEMPT_SUBMITTED,
      payload: submittedPayload({
        attempt: closed,
        student,
        version: v.version,
        answers,
        files,
        timeSpentMinutes: Math.max(0, Math.floor((end - closed.startedAt.getTime()) / 60_000)),
        finalisedBy: how.finalisedBy,
        gradedFromAutosave: how.late,
      }),
    });
    return closed;
  }

  function wake(attemptId: string) {
    for (const w of waiters.get(attemptId) ?? []) w();
  }

  /** The attempt's result once the results service recorded it, waiting up to `resultWaitMs`. */
  async function awaitResult(attemptId: string, fresh: boolean): Promise<StudentResultBody | undefined> {
    // A submission just committed has no result yet (its event is not even published): wait before the first look.
    if (fresh && deps.resultWaitMs === 0) return undefined;
    const until = Date.now() + deps.resultWaitMs;
    // This replica's consumer wakes the wait at once; the looks only find a result another replica recorded, so
    // they are few (each is a statement, and at a peak thousands of submits wait at the same time).
    let pause = 250;
    let look = !fresh;
    for (;;) {
      const result = look ? await resultOf(database.db, attemptId) : undefined;
      look = true;
      const left = until - Date.now();
      if (result || left <= 0) return result;
      // Woken at once when this replica's consumer records it; a poll finds one another replica recorded.
      await new Promise<void>((resolve) => {
        const set = waiters.get(attemptId) ?? new Set();
        waiters.set(attemptId, set);
        const done = () => {
          clearTimeout(timer);
          set.delete(done);
          if (set.size === 0) waiters.delete(attemptId);
          resolve();
        };
        const timer = setTimeout(done, Math.min(pause, left));
        set.add(done);
      });
      pause = Math.min(pause * 2, 1_000);
    }
  }

  return {
    /** The welcome page and the test: one database round trip, the version's student view from memory. */
    async assessment(token: string) {
      const page = await assessmentPage(database.db, tokenHash(token), views.keys());
      const student = usable(page?.student);
      if (!page!.versionId) throw notFound(NO_ASSESSMENT_MESSAGE, 'no_assessment');
      const view = page!.content ? remember(page!.content) : views.get(page!.versionId);
      const latest = page!.latest;
      const assessment = view ?? studentView(await version(page!.versionId));
      return {
        student: {
          name: student.name,
          email: student.email,
          extraTimePercent: student.extraTimePercent,
          // The student's own limit, as Start will set it: the page states it and computes nothing.
          timeLimitSeconds: attemptSeconds(assessment.timeLimit, student.extraTimePercent),
        },
        alreadyCompleted: Boolean(page!.passed),
        result: page!.passed,
        previousAttempt: latest
          ? { percentage: latest.percentage, passed: latest.passed, completedAt: latest.completedAt }
          : null,
        assessment,
        attempt: page!.attempt ? attemptJson(page!.attempt, page!.attempt.files) : null,
        awaitingResult: page!.awaitingResult,
        serverNow: page!.serverNow,
      };
    },

    /** Starts an attempt, or returns the one in progress (two tabs, two devices): never two at once. */
    async start(token: string) {
      const outcome = await database.transaction(async (tx) => {
        const standing = await lockStanding(tx, tokenHash(token));
        const student = usable(standing?.student);
        if (standing!.current) {
          return {
            created: false,
            attempt: standing!.current,
            files: standing!.current.files,
            now: standing!.now,
          };
        }
        if (standing!.passed) throw conflict(ALREADY_COMPLETED_MESSAGE, 'already_completed');
        if (standing!.newest?.status === 'submitted') {
          throw conflict('Your last submission is still being scored', 'awaiting_result');
        }
        const active = await activeVersionSummary(tx);
        if (!active) throw notFound(NO_ASSESSMENT_MESSAGE, 'no_assessment');
        const attempt = await insertAttempt(tx, {
          studentId: student.id,
          attemptNumber: standing!.lastNumber + 1,
          versionId: active.versionId,
          limitSeconds: attemptSeconds(active.timeLimitMinutes, student.extraTimePercent),
        });
        if (!attempt) throw conflict('The assessment is being started in another window', 'start_conflict');
        await markStarted(tx, student.id);
        await enqueue(tx, { name: ATTEMPT_STARTED, payload: startedPayload(attempt, active.version) });
        return { created: true, attempt, files: [], now: attempt.startedAt };
      });
      if (outcome.created) deps.notifyOutbox();
      return {
        created: outcome.created,
        attempt: attemptJson(outcome.attempt, outcome.files),
        serverNow: outcome.now,
      };
    },

    /** Keeps the newest autosave (by seq); an older one changes nothing and answers the newest seq held. */
    async autosave(token: string, input: { attemptId: string; seq: number; answers: Answer[] }) {
      const found = await studentAttempt(
        database.db,
        tokenHash(token),
        UUID.test(input.attemptId) ? input.attemptId : null,
      );
      usable(found?.student);
      const attempt = UUID.test(input.attemptId) ? found!.attempt : null;
      if (!attempt) throw attemptNotFound();
      if (!isOpen(attempt, found!.now)) throw attemptClosed();
      const answers = checkAnswers(await version(attempt.versionId), input.answers);
      const saved = await saveAnswers(database.db, {
        attemptId: attempt.id,
        seq: input.seq,
        answers,
        graceSeconds,
      });
      if (saved) return { seq: saved.seq, savedAt: saved.savedAt, serverNow: saved.now };
      const now = await studentAttempt(database.db, tokenHash(token), attempt.id);
      const current = now?.attempt;
      if (!current || !isOpen(current, now.now)) throw attemptClosed();
      return { seq: current.seq, savedAt: current.savedAt ?? current.startedAt, serverNow: now.now };
    },

    /**
     * The cheap check a write meets before its body is read: the link is known and usable, and (for a file) an
     * attempt is open. A burst of large bodies on random links then costs one indexed look-up each, no memory.
     */
    async admitWrite(token: string, needs: { openAttempt: boolean }) {
      const found = await studentAttempt(database.db, tokenHash(token), null);
      usable(found?.student);
      if (!needs.openAttempt) return;
      if (!found!.attempt) throw attemptNotFound();
      if (!isOpen(found!.attempt, found!.now)) throw attemptClosed();
    },

    /** One file per question of the attempt in progress; a new one replaces the old (its object removed). */
    async uploadFile(token: string, input: { attemptId: string; file: NewFile }) {
      const found = await studentAttempt(
        database.db,
        tokenHash(token),
        UUID.test(input.attemptId) ? input.attemptId : null,
      );
      const student = usable(found?.student);
      const attempt = UUID.test(input.attemptId) ? found!.attempt : null;
      if (!attempt) throw attemptNotFound();
      if (!isOpen(attempt, found!.now)) throw attemptClosed();
      checkFileQuestion(await version(attempt.versionId), input.file.questionId);
      const [stored] = await storeFiles(student.id, attempt.id, [input.file]);
      const f = stored!;
      const written = await database
        .transaction((tx) => upsertFile(tx, { ...f, attemptId: attempt.id, graceSeconds }))
        .catch(async (err: unknown) => {
          await removeObjects([f.objectKey]);
          throw err;
        });
      if (!written.written) {
        await removeObjects([f.objectKey]);
        throw attemptClosed();
      }
      await removeObjects([written.replacedKey]);
      return attemptJson(attempt, [written.file!]).files[0]!;
    },

    async removeFile(token: string, questionId: string) {
      const found = await studentAttempt(database.db, tokenHash(token), null);
      const student = usable(found?.student);
      if (!found!.attempt) throw attemptNotFound();
      const key = await deleteFile(database.db, student.id, questionId);
      if (!key) throw notFound('No file for this question', 'file_not_found');
      await removeObjects([key]);
    },

    /**
     * Ends the attempt with the student's answers (whole up to the grace after the deadline, else the last
     * autosave before the deadline), once: a repeat by attempt id or Idempotency-Key finds the ended attempt and
     * answers as the first did. Then waits a few seconds for the result.
     */
    async submit(
      token: string,
      input: {
        attemptId?: string;
        idempotencyKey?: string;
        answers: Answer[];
        files: NewFile[];
        /** Answer once the submission is committed, without waiting for its result (`Prefer: respond-async`). */
        respondAsync?: boolean;
      },
    ): Promise<SubmitOutcome> {
      if (input.attemptId !== undefined && !UUID.test(input.attemptId)) {
        usable((await studentAttempt(database.db, tokenHash(token), null))?.student);
        throw attemptNotFound();
      }
      const hash = tokenHash(token);
      // Files go to the bucket before the transaction (object storage is not in it); a repeat removes them.
      let stored: Awaited<ReturnType<typeof storeFiles>> = [];
      if (input.files.length > 0) {
        const found = await studentAttempt(database.db, hash, input.attemptId ?? null);
        const student = usable(found?.student);
        const attempt = found!.attempt;
        if (attempt && isOpen(attempt, found!.now)) {
          const v = await version(attempt.versionId);
          for (const f of input.files) checkFileQuestion(v, f.questionId);
          stored = await storeFiles(student.id, attempt.id, input.files);
        }
      }
      const replaced: string[] = [];
      let ended: { attempt: AttemptRecord; now: Date; fresh: boolean; files?: AttemptFile[] };
      try {
        ended = await database.transaction(async (tx) => {
          const standing = await lockStanding(tx, hash, input);
          const student = usable(standing?.student);
          const { byKey, byId, current, newest, passed, now } = standing!;
          if (input.attemptId !== undefined && !byKey && !byId) throw attemptNotFound();
          let target = byKey ?? byId ?? current;
          if (!target) {
            if (passed) throw conflict(ALREADY_COMPLETED_MESSAGE, 'already_completed');
            if (!newest) throw conflict('Start the assessment first', 'not_started');
            target = newest;
          }
          if (target.status !== 'in_progress') return { attempt: target, now, fresh: false };
          const late = now.getTime() > closedAt(target);
          const v = await version(target.versionId, tx);
          for (const f of late ? [] : stored) {
            const written = await upsertFile(tx, { ...f, attemptId: target.id, graceSeconds });
            if (written.replacedKey) replaced.push(written.replacedKey);
          }
          const closed = await close(tx, target, student, {
            answers: late ? target.deadlineAnswers : checkAnswers(v, input.answers),
            finalisedBy: 'student',
            late,
            idempotencyKey: input.idempotencyKey ?? null,
          });
          // Ended meanwhile by the deadline job: this submit is a repeat of that ending.
          if (!closed) return { attempt: target, now, fresh: false };
          return { attempt: closed, now, fresh: true, files: closed.files };
        });
      } catch (err) {
        await removeObjects(stored.map((f) => f.objectKey));
        throw err;
      }
      if (ended.fresh) {
        deps.notifyOutbox();
        const used = new Set((ended.files ?? []).map((f) => f.objectKey));
        await removeObjects([...replaced, ...stored.map((f) => f.objectKey).filter((k) => !used.has(k))]);
      } else {
        await removeObjects(stored.map((f) => f.objectKey));
      }
      // Asked not to wait: a fresh submission has no result yet, a repeat answers with the one recorded, if any.
      const result = input.respondAsync
        ? ended.fresh
          ? undefined
          : await resultOf(database.db, ended.attempt.id)
        : await awaitResult(ended.attempt.id, ended.fresh);
      const serverNow = new Date();
      return result
        ? { kind: 'result', result, serverNow }
        : { kind: 'scoring', attemptId: ended.attempt.id, serverNow };
    },

    async results(token: string) {
      const found = await resultsOf(database.db, tokenHash(token));
      if (!found) throw invalidLink();
      return found;
    },

    /**
     * Finalises attempts whose deadline and grace passed with no submit, from their last autosave before the
     * deadline. Rows are claimed with SKIP LOCKED, so replicas running this at once never finalise one twice.
     */
    async finaliseOverdue(limit = 100): Promise<number> {
      const count = await database.transaction(async (tx) => {
        const due = await claimOverdue(tx, graceSeconds, limit);
        for (const a of due) {
          await close(tx, a, a, {
            answers: a.deadlineAnswers,
            finalisedBy: 'deadline',
            late: true,
            idempotencyKey: null,
          });
        }
        return due.length;
      });
      if (count > 0) deps.notifyOutbox();
      return count;
    },

    /** Keeps the student's copy of a recorded result (in the consumer's once-only transaction). */
    async recordResult(tx: Tx, e: EventPayload<'results.result.recorded.v1'>) {
      if (!UUID.test(e.attemptId) || !isStudentId(e.studentId)) return;
      const completedAt = e.completedAt ? timestampDate(e.completedAt) : new Date();
      await insertResult(tx, {
        id: e.resultId,
        attemptId: e.attemptId,
        studentId: e.studentId,
        passed: e.passed,
        completedAt,
        body: {
          _id: e.resultId,
          attemptId: e.attemptId,
          attemptNumber: e.attemptNumber,
          score: e.score,
          totalPoints: e.totalPoints,
          percentage: e.percentage,
          passed: e.passed,
          canRetake: e.canRetake,
          assessmentCode: e.assessmentCode,
          completedAt: completedAt.toISOString(),
          passingScore: e.passingScore,
          sections: e.sections.map((s) => ({
            id: s.sectionId,
            title: s.title,
            score: s.score,
            totalPoints: s.totalPoints,
            correct: s.correct,
            questions: s.questions,
            percentage: s.percentage,
          })),
        },
      });
    },

    /**
     * Keeps the certificate download link the report service issued with a result's copy. A link that arrives
     * before the copy is retried until the copy is there (NotYetError); one for an erased student is dropped.
     */
    async recordCertificate(tx: Tx, e: EventPayload<'report.certificate.issued.v1'>) {
      if (!e.downloadUrl || !e.downloadUrlExpiresAt || !isStudentId(e.studentId)) return;
      const outcome = await saveCertificateLink(tx, {
        resultId: e.resultId,
        studentId: e.studentId,
        url: e.downloadUrl,
        expiresAt: timestampDate(e.downloadUrlExpiresAt),
      });
      if (outcome === 'missing') throw notYet('the result this certificate belongs to has not arrived yet');
    },

    /** Wakes this replica's submits waiting for the attempt's result (after the copy committed). */
    resultRecorded: wake,

    dropResult: (tx: Tx, resultId: string) => deleteResult(tx, resultId),

    /** An answer file for an admin: its name, type and size, and its bytes from the bucket. */
    async adminFile(q: { studentId: string; attemptId: string; questionId: string }) {
      const missing = () => notFound('File not found', 'file_not_found');
      if (!isStudentId(q.studentId) || !UUID.test(q.attemptId)) throw missing();
      const file = await adminFile(database.db, q);
      if (!file) throw missing();
      return { file, body: await storage.get(file.objectKey) };
    },
  };
}

export type Attempts = ReturnType<typeof createAttempts>;
