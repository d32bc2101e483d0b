import { badRequest } from '@readiness/kit/errors';
import { fileSource, uploadedFiles, uploadedName } from '@readiness/kit/files';
import { parse, textField } from '@readiness/kit/http';
import type { Request } from 'express';
import { z } from 'zod';
import type { NewFile } from '../../../domain/attempts';
import { FILE_UPLOADED } from '../../../domain/versions';
import { jsonBody } from '../json-body';

const answerText = textField({ label: 'Answer' }).max(255, 'An answer must be at most 255 characters');

/** A question's id as the student's page sends it with an answer, a file or a paste. */
export const questionIdField = textField({ label: 'Question id' })
  .min(1, 'Question id is required')
  .max(100, 'Question id must be at most 100 characters');

/** At most this many answers in one request: more than any assessment has questions. */
export const MAX_ANSWERS = 500;

export const answersField = z
  .array(
    z.object(
      { questionId: questionIdField, answer: answerText },
      { error: 'Each answer is {questionId, answer}' },
    ),
    { error: 'answers must be a list of {questionId, answer}' },
  )
  .max(MAX_ANSWERS, `At most ${MAX_ANSWERS} answers`);

export const autosaveBody = jsonBody({
  attemptId: z.string({ error: 'attemptId is required' }).max(100),
  seq: z
    .number({ error: 'seq must be a whole number' })
    .int('seq must be a whole number')
    .min(0, 'seq must be a whole number')
    .max(Number.MAX_SAFE_INTEGER),
  answers: answersField,
});

/** A JSON submit; the multipart one carries the same fields as text (`answers` and `fileQuestionIds` as JSON). */
export const submitBody = jsonBody({
  attemptId: z.string().max(100).optional(),
  answers: answersField.default([]),
  /** Whole minutes by the page's count: kept for the SPEC's payload, the server's clock decides. */
  timeSpent: z.coerce.number().min(0).max(100_000).optional(),
  startedAt: z.string().max(64).optional(),
  fileQuestionIds: z.array(questionIdField).max(MAX_ANSWERS).optional(),
});

export const idempotencyKey = textField({ label: 'Idempotency-Key' })
  .min(1)
  .max(200, 'Idempotency-Key must be at most 200 characters')
  .optional();

/** Multipart text fields that carry JSON (the SPEC's submit sends `answers` as JSON text). */
function jsonField(value: unknown, name: string): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    throw badRequest(`${name} must be JSON`, 'validation_failed');
  }
}

/** The submit body, JSON or multipart, with its files matched to their questions. */
export async function submission(req: Request) {
  const multipart = Boolean(req.is('multipart/form-data'));
  const raw = (req.body ?? {}) as Record<string, unknown>;
  const body = parse(
    submitBody,
    multipart
      ? {
          ...raw,
          answers: raw.answers === undefined ? undefined : jsonField(raw.answers, 'answers'),
          fileQuestionIds:
            raw.fileQuestionIds === undefined ? undefined : jsonField(raw.fileQuestionIds, 'fileQuestionIds'),
        }
      : raw,
  );
  const parts = uploadedFiles(req);
  // Without `fileQuestionIds`, files follow the order of the answers recorded as 'file_uploaded' (SPEC §7).
  const questionIds =
    body.fileQuestionIds ?? body.answers.filter((a) => a.answer === FILE_UPLOADED).map((a) => a.questionId);
  if (parts.length > 0 && questionIds.length !== parts.length) {
    throw badRequest(
      'Each file needs its question: send fileQuestionIds in the order of the files',
      'bad_upload',
    );
  }
  const files: NewFile[] = await Promise.all(
    parts.map(async (p, i) => ({
      questionId: questionIds[i]!,
      originalName: uploadedName(p),
      source: await fileSource(p),
    })),
  );
  return { body, files };
}
