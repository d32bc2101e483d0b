import { randomUUID } from 'node:crypto';
import { AppError } from '@readiness/kit/errors';
import { detectFile, mimetypeOfExtension, type FileExtension } from '@readiness/kit/files';

/** The question files admins may attach (SPEC: jpg, jpeg, png, gif, pdf, doc, docx, txt, zip). */
const ALLOWED_EXTENSIONS: readonly FileExtension[] = [
  'jpg',
  'jpeg',
  'png',
  'gif',
  'pdf',
  'doc',
  'docx',
  'txt',
  'zip',
];

export const FILE_TYPE_MESSAGE = `Only these file types are accepted: ${ALLOWED_EXTENSIONS.join(', ')}`;

export function fileTooLarge(maxBytes: number): AppError {
  const mb = Math.round((maxBytes / (1024 * 1024)) * 10) / 10;
  return new AppError('payload_too_large', `File is too large: the limit is ${mb} MB`, 413);
}

/**
 * Checks an uploaded file by its extension and by its first bytes (the client's Content-Type is ignored), and
 * names it for storage: a random name with the checked extension, never the client's.
 */
export function acceptFile(originalName: string, data: Buffer): { filename: string; mimetype: string } {
  const kind = detectFile(originalName, data, ALLOWED_EXTENSIONS);
  if (!kind) throw new AppError('unsupported_file_type', FILE_TYPE_MESSAGE, 400);
  return { filename: `${randomUUID()}.${kind.extension}`, mimetype: kind.mimetype };
}

/** Server-generated names only: a UUID and an allowed extension (anything else is no file of ours). */
export function isStoredName(filename: string): boolean {
  const match =
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.([a-z]+)$|^seed-[a-z0-9-]+\.([a-z]+)$/.exec(
      filename,
    );
  const extension = match?.[1] ?? match?.[2];
  return Boolean(extension && (ALLOWED_EXTENSIONS as readonly string[]).includes(extension));
}

export function mimetypeOf(filename: string): string {
  return mimetypeOfExtension(filename.split('.').pop() ?? '');
}
