import { AppError, badRequest } from '@readiness/kit/errors';
import { multipartBody } from '@readiness/kit/files';
import { emailField, personNameField } from '@readiness/kit/http';
import { z } from 'zod';
import { parseCsv } from '../../../domain/csv';
import type { StudentInput } from '../../../domain/students';
import { extraTimeField, languageField, phoneField } from './student-fields';

const CSV_COLUMNS = ['name', 'email', 'phoneNumber', 'extraTimePercent', 'language'] as const;

/** One row of the CSV: the invitation's rules, an empty extra time read as none. */
export const csvRow = z.object({
  name: personNameField,
  email: emailField,
  phoneNumber: phoneField,
  extraTimePercent: z.preprocess((v) => (v === '' || v === undefined ? 0 : v), extraTimeField),
  language: languageField,
});

export const importQuery = z.object({
  dryRun: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((v) => v === 'true' || v === '1'),
});

export const importOut = z.object({
  dryRun: z.boolean(),
  total: z.number().int(),
  valid: z.number().int(),
  imported: z.number().int(),
  problems: z.array(z.object({ line: z.number().int(), email: z.string(), message: z.string() })),
});

/** The rows of an uploaded CSV, each validated with the invite rules, the header row naming the columns. */
export function csvRows(text: string, maxRows: number) {
  const records = parseCsv(text);
  const header = records.shift();
  if (records.length > maxRows) {
    throw new AppError(
      'too_many_rows',
      `The file has ${records.length.toLocaleString('en-US')} students; import at most ${maxRows.toLocaleString('en-US')} at a time (split the file)`,
      413,
    );
  }
  const names = (header?.fields ?? []).map((f) => f.trim());
  if (!names.includes('name') || !names.includes('email')) {
    throw badRequest(`The first line must name the columns: ${CSV_COLUMNS.join(',')}`, 'bad_csv');
  }
  return records.map((r) => {
    const raw: Record<string, string> = {};
    names.forEach((n, i) => {
      if ((CSV_COLUMNS as readonly string[]).includes(n)) raw[n] = r.fields[i] ?? '';
    });
    const result = csvRow.safeParse(raw);
    const parsed = result.success
      ? { ok: true as const, value: result.data as StudentInput }
      : { ok: false as const, email: (raw.email ?? '').trim(), message: result.error.issues[0]!.message };
    return { line: r.line, parsed };
  });
}

/** The one CSV file of an import, in memory, every limit set, the size cap enforced while reading. */
export const csvFile = (maxBytes: number) =>
  multipartBody({
    field: 'file',
    limits: { fileSize: maxBytes, files: 1, fields: 5 },
    tooLarge: () => new AppError('file_too_large', `The file is larger than ${maxBytes} bytes`, 413),
    badUpload: 'Send one CSV file in the field "file"',
  });
