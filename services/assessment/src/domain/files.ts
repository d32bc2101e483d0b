import { randomUUID } from 'node:crypto';
import { AppError } from '@readiness/kit/errors';

const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const ZIP = [0x50, 0x4b, 0x03, 0x04];
const EMPTY_ZIP = [0x50, 0x4b, 0x05, 0x06];

const startsWith = (data: Buffer, bytes: number[]) =>
  data.length >= bytes.length && bytes.every((b, i) => data[i] === b);

/** Plain text: valid UTF-8 without NUL or control characters other than tab, line breaks and form feed. */
function isText(data: Buffer): boolean {
  if (data.includes(0)) return false;
  const text = new TextDecoder('utf-8', { fatal: false }).decode(data);
  if (text.includes('\ufffd')) return false;
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  return !/[\u0001-\u0008\u000e-\u001a\u001c-\u001f\u007f]/.test(text);
}

interface FileKind {
  mimetype: string;
  matches(data: Buffer): boolean;
}

const jpeg: FileKind = { mimetype: 'image/jpeg', matches: (d) => startsWith(d, [0xff, 0xd8, 0xff]) };
const zipped = (d: Buffer) => startsWith(d, ZIP) || startsWith(d, EMPTY_ZIP);

/** The question files admins may attach (SPEC: jpg, jpeg, png, gif, pdf, doc, docx, txt, zip), by extension. */
const KINDS: Record<string, FileKind> = {
  jpg: jpeg,
  jpeg,
  png: {
    mimetype: 'image/png',
    matches: (d) => startsWith(d, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  },
  gif: {
    mimetype: 'image/gif',
    matches: (d) =>
      d.subarray(0, 6).toString('latin1') === 'GIF87a' || d.subarray(0, 6).toString('latin1') === 'GIF89a',
  },
  pdf: { mimetype: 'application/pdf', matches: (d) => d.subarray(0, 5).toString('latin1') === '%PDF-' },
  doc: { mimetype: 'application/msword', matches: (d) => startsWith(d, OLE) },
  docx: {
    mimetype: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    matches: zipped,
  },
  txt: { mimetype: 'text/plain; charset=utf-8', matches: isText },
  zip: { mimetype: 'application/zip', matches: zipped },
};

export const ALLOWED_EXTENSIONS = Object.keys(KINDS);

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
  const extension = /\.([A-Za-z0-9]+)$/.exec(originalName)?.[1]?.toLowerCase() ?? '';
  const kind = KINDS[extension];
  if (!kind || data.length === 0 || !kind.matches(data)) {
    throw new AppError('unsupported_file_type', FILE_TYPE_MESSAGE, 400);
  }
  return { filename: `${randomUUID()}.${extension}`, mimetype: kind.mimetype };
}

/** Server-generated names only: a UUID and an allowed extension (anything else is no file of ours). */
export function isStoredName(filename: string): boolean {
  const match =
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.([a-z]+)$|^seed-[a-z0-9-]+\.([a-z]+)$/.exec(
      filename,
    );
  const extension = match?.[1] ?? match?.[2];
  return Boolean(extension && KINDS[extension]);
}

export function mimetypeOf(filename: string): string {
  const extension = filename.split('.').pop() ?? '';
  return KINDS[extension]?.mimetype ?? 'application/octet-stream';
}
