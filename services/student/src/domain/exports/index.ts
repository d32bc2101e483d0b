import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import { payloadOf, type EventPayload } from '@readiness/contracts';
import type { Database } from '@readiness/kit/db';
import { notFound } from '@readiness/kit/errors';
import type { Logger } from '@readiness/kit/logger';
import { enqueue } from '@readiness/kit/outbox';
import { EXPORT_PATH, type ExportingService } from '@readiness/kit/runtime';
import { isMissingObject, type ObjectStore } from '@readiness/kit/storage';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import {
  deleteExportsBefore,
  insertExport,
  insertPart,
  latestExport,
  ownStudentData,
  type ExportRecord,
  type PartFile,
} from '../../data-access/student-exports-repository';
import { audit, findStudent, isStudentId } from '../../data-access/students-repository';
import { STUDENT_NOT_FOUND_MESSAGE } from '../students';

export const EXPORT_REQUESTED = 'student.export.requested.v1' as const;

/** The services that answer for their own data, in the order their folders are explained. */
export const EXPORT_SERVICES: readonly ExportingService[] = [
  'results',
  'report',
  'notification',
  'integrations',
  'auth',
];

const SERVICE_HOLDS: Record<ExportingService | 'student', string> = {
  student: 'the invitation, the attempts with every answer and the timeline, the uploaded files',
  results: 'the scored results',
  report: 'the certificates, their PDFs and their Open Badges credentials',
  notification: 'the mails sent',
  integrations: 'the LMS launches and grades, the webhook deliveries',
  auth: "the audit log's entries about the student",
};

/** A request still gathering after this long may be asked again: a service that was down answers the new one. */
const GATHERING_MS = 5 * 60 * 1000;

export interface StudentExportsDeps {
  database: Database;
  storage: ObjectStore;
  logger: Logger;
  /** How long an export can be downloaded after it was requested; then its parts are removed. */
  ttlMs: number;
}

/** What the admin screen shows of an export. */
export interface ExportStatus {
  id: string;
  requestedAt: Date;
  ready: boolean;
  received: string[];
  waitingFor: string[];
  expiresAt: Date;
}

const statusOf = (deps: StudentExportsDeps, e: ExportRecord): ExportStatus => {
  const received = e.parts.map((p) => p.service);
  const waitingFor = EXPORT_SERVICES.filter((s) => !received.includes(s));
  return {
    id: e.id,
    requestedAt: e.requestedAt,
    ready: waitingFor.length === 0,
    received,
    waitingFor,
    expiresAt: new Date(e.requestedAt.getTime() + deps.ttlMs),
  };
};

/** A part may name objects of the bucket only among the student's own certificates. */
const objectPrefix = (service: string, studentId: string) =>
  service === 'report' ? `certificates/${encodeURIComponent(studentId)}/` : undefined;

/** `Ada Lovelace` → `Ada-Lovelace`: letters and digits of the name, for the file name. */
const fileNamePart = (name: string) =>
  name.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '') || 'student';

/** A name of the ZIP from what a student typed (an upload's name): letters, digits, '-', '_' and '.' only. */
const safeName = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[.-]+/, '')
    .slice(0, 100) || 'file';

/**
 * Subject-access exports: an administrator asks, every service answers with its part over the bus, and the ZIP is
 * made from the parts, the student's own rows and the bucket's files when it is downloaded (never stored whole).
 */
export function createStudentExports(deps: StudentExportsDeps) {
  const since = () => new Date(Date.now() - deps.ttlMs);

  /** Asks every service for its part, unless a request is gathering or ready already. Audited. */
  async function request(studentId: string, actorId: string): Promise<ExportStatus> {
    return deps.database.transaction(async (tx) => {
      const student = await findStudent(tx, studentId, true);
      if (!student) throw notFound(STUDENT_NOT_FOUND_MESSAGE, 'student_not_found');
      const current = await latestExport(tx, studentId, since());
      if (current) {
        const status = statusOf(deps, current);
        if (status.ready || Date.now() - current.requestedAt.getTime() < GATHERING_MS) return status;
      }
      const id = randomUUID();
      await insertExport(tx, { id, studentId, requestedBy: actorId });
      await enqueue(tx, {
        name: EXPORT_REQUESTED,
        payload: payloadOf(EXPORT_REQUESTED, {
          exportId: id,
          studentId,
          name: student.name,
          email: student.email,
          actorId,
        }),
      });
      await audit(tx, { actorId, action: 'student.export-requested', studentId, details: { exportId: id } });
      const created = await latestExport(tx, studentId, since());
      return statusOf(deps, created!);
    });
  }

  /** The newest export that can still be downloaded, or undefined. */
  async function status(studentId: string): Promise<ExportStatus | undefined> {
    if (!isStudentId(studentId)) return undefined;
    const current = await latestExport(deps.database.db, studentId, since());
    return current && statusOf(deps, current);
  }

  /** Keeps a service's answer; a part with a file it may not give is refused whole (and logged). */
  async function receivePart(
    eventName: string,
    e: EventPayload<'results.student-export.answered.v1'>,
  ): Promise<void> {
    const service = eventName.split('.')[0]!;
    const prefix = objectPrefix(service, e.studentId);
    const refused = e.files.find(
      (f) =>
        !EXPORT_PATH.test(f.path) ||
        (f.objectKey !== '' && (prefix === undefined || !f.objectKey.startsWith(prefix))) ||
        (f.objectKey !== '' && f.json !== ''),
    );
    if (service !== e.service || !EXPORT_SERVICES.includes(service as ExportingService) || refused) {
      deps.logger.error(
        { exportId: e.exportId, service, claimed: e.service, file: refused?.path },
        'a subject-access export part was refused',
      );
      return;
    }
    const files: PartFile[] = e.files.map((f) => ({
      path: f.path,
      description: f.description,
      json: f.json,
      objectKey: f.objectKey,
    }));
    await insertPart(deps.database.db, { exportId: e.exportId, studentId: e.studentId, service, files });
  }

  /**
   * Writes the ready export of the student as a ZIP to `out` (README.txt, the student service's `student/` folder,
   * one folder per service). Undefined (nothing written) when no export is ready.
   */
  async function download(
    studentId: string,
  ): Promise<{ fileName: string; write(out: Writable): Promise<void> } | undefined> {
    if (!isStudentId(studentId)) return undefined;
    const current = await latestExport(deps.database.db, studentId, since());
    if (!current || !statusOf(deps, current).ready) return undefined;
    const own = await ownStudentData(deps.database.db, studentId);
    if (!own.student) return undefined;
    const name = String((own.student as { name: string }).name);
    const date = new Date().toISOString().slice(0, 10);
    return {
      fileName: `${fileNamePart(name)}-data-${date}.zip`,
      write: (out) => writeZip(out, current, own, name),
    };
  }

  async function writeZip(
    out: Writable,
    e: ExportRecord,
    own: Awaited<ReturnType<typeof ownStudentData>>,
    name: string,
  ): Promise<void> {
    let failed: Error | undefined;
    let ended = false;
    let drained = true;
    const zip = new Zip((err, chunk, final) => {
      if (err) {
        failed = err;
        return;
      }
      drained = out.write(chunk) && drained;
      if (final) ended = true;
    });
    const readme: string[] = [];
    const written = new Set<string>();
    const addJson = (path: string, description: string, text: string) => {
      const entry = new ZipDeflate(path, { level: 6 });
      zip.add(entry);
      entry.push(Buffer.from(text.endsWith('\n') ? text : `${text}\n`, 'utf8'), true);
      readme.push(`${path}\n    ${description}`);
      written.add(path);
    };
    const addObject = async (path: string, description: string, key: string) => {
      let body: Readable;
      try {
        body = await deps.storage.get(key);
      } catch (err) {
        if (!isMissingObject(err)) throw err;
        readme.push(`${path}\n    ${description} (no longer stored, so not included)`);
        return;
      }
      const entry = new ZipPassThrough(path);
      zip.add(entry);
      for await (const chunk of body) {
        entry.push(chunk as Uint8Array);
        if (!drained) {
          await once(out, 'drain');
          drained = true;
        }
      }
      entry.push(new Uint8Array(0), true);
      readme.push(`${path}\n    ${description}`);
      written.add(path);
    };
    const jsonText = (value: unknown) => JSON.stringify(value ?? null, null, 2);

    addJson(
      'student/student.json',
      'You as invited: name, e-mail, phone, language, extra time, the invitation and its expiry, reminders.',
      jsonText(own.student),
    );
    addJson(
      'student/attempts.json',
      'Every attempt: when it started and ended, each answer as saved, the question paper, the devices, and the timeline (sections reached, saves, time offline or away from the page).',
      jsonText(own.attempts),
    );
    addJson('student/results.json', 'The results as the completion page showed them.', jsonText(own.results));
    addJson(
      'student/lms-identities.json',
      'The learning management systems you came from, and your user id there.',
      jsonText(own.lmsIdentities),
    );
    addJson(
      'student/actions.json',
      "Administrators' actions on your invitation and attempts (resent, reminded, extra time, time added…).",
      jsonText(own.actions),
    );
    for (const f of own.files) {
      const path = `student/files/attempt-${f.attempt_number}/${safeName(f.question_id)}-${safeName(f.original_name)}`;
      if (written.has(path)) continue;
      await addObject(
        path,
        `The file you uploaded for question ${f.question_id} (${f.original_name}).`,
        f.object_key,
      );
    }
    for (const service of EXPORT_SERVICES) {
      const part = e.parts.find((p) => p.service === service)!;
      for (const f of part.files) {
        const path = `${service}/${f.path}`;
        if (written.has(path)) continue;
        if (f.objectKey) await addObject(path, f.description, f.objectKey);
        else addJson(path, f.description, f.json);
      }
    }
    const header = [
      `Everything Readiness holds about ${name}`,
      '',
      `Requested on ${e.requestedAt.toISOString()}; made on ${new Date().toISOString()} (export ${e.id}).`,
      'Each service of the product keeps its own data and answered for it; each folder is one service:',
      '',
      ...(['student', ...EXPORT_SERVICES] as const).map((s) => `  ${s}/: ${SERVICE_HOLDS[s]}`),
      '',
      'Times are UTC (ISO 8601). The JSON files list the rows as each service keeps them; the PDFs and uploaded files are',
      'copied as they were stored.',
      '',
      'The files:',
      '',
    ];
    addJson('README.txt', 'This file.', [...header, ...readme].join('\n'));
    zip.end();
    if (failed) throw failed;
    if (!ended) throw new Error('the export ZIP did not end');
    if (!drained) await once(out, 'drain');
  }

  return {
    request,
    status,
    receivePart,
    download,
    /** Removes the exports past their lifetime (and their parts). */
    sweep: () => deleteExportsBefore(deps.database.db, since()),
  };
}

export type StudentExports = ReturnType<typeof createStudentExports>;
