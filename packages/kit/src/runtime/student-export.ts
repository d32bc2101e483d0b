import { payloadOf, type QueueName } from '@readiness/contracts';
import type { Tx } from '../db';
import { enqueue, type OnceEffect } from '../outbox';
import { on, type EventSubscription, type ServiceContext } from './service';

/** The services that keep data about students besides the student service, each answering for its own. */
export type ExportingService = 'results' | 'report' | 'notification' | 'integrations' | 'auth';

/** The student a subject-access export is for, as the request names them. */
export interface ExportedStudent {
  studentId: string;
  name: string;
  email: string;
}

/** One file of a service's part: JSON it writes, or an object of the product's bucket copied in (a PDF). */
export type StudentExportFile = { path: string; description: string } & (
  { data: unknown; objectKey?: never } | { objectKey: string; data?: never }
);

/** A file's name in the ZIP: letters, digits, `-`, `_` and `.` in `/`-separated parts, none of them `.` or `..`. */
export const EXPORT_PATH = /^(?!.*(?:^|\/)\.{1,2}(?:\/|$))[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]+)*$/;

/**
 * Answers `student.export.requested.v1` with the service's part (`<service>.student-export.answered.v1`): `gather`
 * reads everything the service holds about the student, in the inbox's transaction, so the part is published
 * once per request whatever the redeliveries, and only if it was read whole.
 */
export function answerStudentExport(
  service: ExportingService,
  ctx: Pick<ServiceContext<unknown>, 'handleOnce'>,
  gather: (tx: Tx, student: ExportedStudent) => Promise<StudentExportFile[]>,
): EventSubscription {
  const queue = `${service}.export-requested` satisfies QueueName;
  const answered = `${service}.student-export.answered.v1` as const;
  return on(queue as 'results.export-requested', {
    async handle(e, meta) {
      const effect: OnceEffect<void> = async (tx) => {
        const files = await gather(tx, { studentId: e.studentId, name: e.name, email: e.email });
        for (const file of files) {
          if (!EXPORT_PATH.test(file.path)) throw new Error(`export file name ${JSON.stringify(file.path)}`);
        }
        await enqueue(tx, {
          name: answered,
          payload: payloadOf(answered, {
            exportId: e.exportId,
            studentId: e.studentId,
            service,
            files: files.map((f) => ({
              path: f.path,
              description: f.description,
              json: f.objectKey === undefined ? JSON.stringify(f.data ?? null, null, 2) : '',
              objectKey: f.objectKey ?? '',
            })),
          }),
        });
      };
      await ctx.handleOnce(queue, meta.id, effect);
    },
  });
}
