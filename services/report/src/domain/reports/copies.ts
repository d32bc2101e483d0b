import {
  addCertificate,
  deleteResult,
  deleteStudent,
  findCertificate,
  isErased,
  saveResult,
} from '../../data-access/reports-repository';
import { currentTraceFields } from '@readiness/kit/tracing';
import type { ResultCopy } from '../../data-access/records';
import { certificateKey, certificatePrefix, normaliseCode, type ReportsDeps } from './context';

/**
 * Keeps the result; a pass gets its certificate, pending until the issuer renders it. One statement, which writes
 * nothing for an erased student (the event was held, or redelivered, past the erasure): it is acknowledged.
 */
export async function recordResult(deps: ReportsDeps, result: ResultCopy, eventId: string): Promise<void> {
  const { duplicate } = await deps.handleOnce(
    'report.result-recorded',
    { eventId, key: result.resultId },
    {
      writes: (firstSight) => [
        saveResult(result, firstSight),
        ...(result.passed
          ? [
              addCertificate(
                {
                  resultId: result.resultId,
                  studentId: result.studentId,
                  code: normaliseCode(result.assessmentCode),
                  objectKey: certificateKey(result.studentId, result.resultId),
                  awardedAt: result.completedAt,
                  ...currentTraceFields(),
                },
                firstSight,
              ),
            ]
          : []),
      ],
    },
  );
  if (!duplicate && (await isErased(deps.database.db, result.studentId))) {
    deps.logger.info(
      { studentId: result.studentId, resultId: result.resultId },
      'result of an erased student; nothing kept',
    );
  }
}

/** Erases a result, its certificate (which stops verifying) and the stored PDF. */
export async function eraseResult(deps: ReportsDeps, resultId: string): Promise<void> {
  const certificate = await findCertificate(deps.database.db, resultId);
  if (certificate) await deps.storage.remove(certificate.objectKey);
  await deps.database.transaction((tx) => deleteResult(tx, resultId));
}

/** Erases every result, certificate and PDF of a student. */
export async function eraseStudent(deps: ReportsDeps, studentId: string): Promise<void> {
  await deps.storage.removePrefix(certificatePrefix(studentId));
  await deps.database.transaction((tx) => deleteStudent(tx, studentId));
}
