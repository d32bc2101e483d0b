import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import multer from 'multer';
import { AppError, badRequest } from '../errors';

const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const ZIP = [0x50, 0x4b, 0x03, 0x04];
const EMPTY_ZIP = [0x50, 0x4b, 0x05, 0x06];

const startsWith = (data: Buffer, bytes: number[]) =>
  data.length >= bytes.length && bytes.every((b, i) => data[i] === b);

/**
 * Plain text: valid UTF-8 without NUL or control characters other than tab, line breaks and form feed. Of a file's
 * first bytes (`partial`), a character the cut splits is not held against it.
 */
function isText(data: Buffer, partial: boolean): boolean {
  if (data.includes(0)) return false;
  const text = new TextDecoder('utf-8', { fatal: false }).decode(data, { stream: partial });
  if (text.includes('\ufffd')) return false;
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  return !/[\u0001-\u0008\u000e-\u001a\u001c-\u001f\u007f]/.test(text);
}

interface FileKind {
  mimetype: string;
  matches(data: Buffer, partial: boolean): boolean;
}

const jpeg: FileKind = { mimetype: 'image/jpeg', matches: (d) => startsWith(d, [0xff, 0xd8, 0xff]) };
const zipped = (d: Buffer) => startsWith(d, ZIP) || startsWith(d, EMPTY_ZIP);

/** Every file kind the product accepts anywhere, by extension, with the first bytes that prove it. */
const KINDS = {
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
} satisfies Record<string, FileKind>;

export type FileExtension = keyof typeof KINDS;

const kindOf = (extension: string): FileKind | undefined =>
  Object.prototype.hasOwnProperty.call(KINDS, extension) ? KINDS[extension as FileExtension] : undefined;

/** The lower-cased extension of a file name ('' when it has none). */
const extensionOf = (name: string) => /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';

/** How many of a spooled file's first bytes `detectFile` looks at. */
export const HEAD_BYTES = 64 * 1024;

/**
 * Checks a file by its extension against an allow-list and by its first bytes (the client's Content-Type is
 * ignored): `data` is the whole file, or a `FileSource` whose first `HEAD_BYTES` are read. Returns the checked
 * extension and the MIME type to serve it with, or undefined when it is refused.
 */
export function detectFile(
  originalName: string,
  data: Buffer | FileSource,
  allowed: readonly FileExtension[],
): { extension: FileExtension; mimetype: string } | undefined {
  const extension = extensionOf(originalName) as FileExtension;
  const kind = allowed.includes(extension) ? kindOf(extension) : undefined;
  const [head, size] = Buffer.isBuffer(data) ? [data, data.length] : [data.head, data.size];
  if (!kind || size === 0 || !kind.matches(head, head.length < size)) return undefined;
  return { extension, mimetype: kind.mimetype };
}

/** The MIME type a stored file of this extension is served with. */
export function mimetypeOfExtension(extension: string): string {
  return kindOf(extension)?.mimetype ?? 'application/octet-stream';
}

/**
 * A file name from outside (a client's, or one a file being imported gives), kept only for display and the
 * download's name: no path, no control characters, at most 255 characters.
 */
export function cleanFileName(name: string): string {
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  const base = (name.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim();
  return base.slice(-255) || 'file';
}

/** Multer reads a part's file name as latin1; browsers send UTF-8. */
export const uploadedName = (file: { originalname: string }) =>
  cleanFileName(Buffer.from(file.originalname, 'latin1').toString('utf8'));

export interface MultipartLimits {
  /** Largest file, in bytes. */
  fileSize: number;
  /** How many file parts at most. */
  files: number;
  /** How many non-file fields at most. */
  fields: number;
  /** Largest non-file field, in bytes. */
  fieldSize?: number;
}

/**
 * A multipart body read by multer with every limit set: file size, file and field counts, field size, field-name
 * size, parts and header pairs. `field` names the file part (`single` for one file, `array` for several). Files are
 * read into memory, or with `spoolDir` streamed to files in that folder (so a process holds a few kilobytes per
 * upload, not the upload), which are removed when the response ends, whatever its outcome. A file over the size
 * limit ends in `tooLarge()` (413) before anything is stored; any other malformed body is a 400 `bad_upload`. A
 * request that is not multipart passes through untouched.
 */
export function multipartBody(options: {
  field: string;
  multiple?: boolean;
  limits: MultipartLimits;
  tooLarge: () => AppError;
  badUpload?: string;
  spoolDir?: string;
}): RequestHandler {
  const { limits, spoolDir } = options;
  if (spoolDir) prepareSpool(spoolDir);
  const upload = multer({
    storage: spoolDir
      ? multer.diskStorage({
          destination: spoolDir,
          filename: (_req, _file, done) => done(null, randomUUID()),
        })
      : multer.memoryStorage(),
    limits: {
      fileSize: limits.fileSize,
      files: limits.files,
      fields: limits.fields,
      fieldSize: limits.fieldSize ?? 1024,
      fieldNameSize: 100,
      parts: limits.files + limits.fields,
      headerPairs: 200,
    },
  });
  const handler = options.multiple ? upload.array(options.field, limits.files) : upload.single(options.field);
  const badUpload = options.badUpload ?? `Send the file in the field "${options.field}"`;
  return (req: Request, res: Response, next: NextFunction) => {
    if (spoolDir) res.once('close', () => void removeSpooled(req));
    handler(req, res, (err: unknown) => {
      if (!err) return next();
      if (err instanceof multer.MulterError) {
        if (err.code === 'LIMIT_FILE_SIZE') return next(options.tooLarge());
        return next(badRequest(badUpload, 'bad_upload'));
      }
      next(err instanceof AppError ? err : badRequest('The upload could not be read', 'bad_upload'));
    });
  };
}

/** A file part multer read, into memory (`buffer`) or to a spool file (`path`). */
export type UploadedFile = Express.Multer.File;

/** No upload takes an hour; a spool file that old was left by a process that was killed mid-request. */
const STALE_SPOOL_MS = 60 * 60 * 1000;

/** Creates the spool folder (shared by the instances of a process and its restarts) and clears what is stale. */
function prepareSpool(dir: string) {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    try {
      if (Date.now() - statSync(file).mtimeMs > STALE_SPOOL_MS) rmSync(file, { force: true });
    } catch {
      // Removed meanwhile by the request that wrote it.
    }
  }
}

const spooled = (req: Request) =>
  [req.file, ...(Array.isArray(req.files) ? req.files : [])].flatMap((f) => (f?.path ? [f.path] : []));

async function removeSpooled(req: Request) {
  // Multer removes the files of a body it refused itself; these are the ones it handed on.
  await Promise.all(spooled(req).map((p) => rm(p, { force: true })));
}

/**
 * An uploaded file's bytes wherever multer put them: its size, its first `HEAD_BYTES`, its SHA-256 (hex) and a
 * stream of it all, which `ObjectStore.put` sends as it reads.
 */
export interface FileSource {
  size: number;
  head: Buffer;
  sha256: string;
  open(): Readable;
}

/** The `FileSource` of an uploaded part (reads the first bytes of a spooled one). */
export async function fileSource(file: UploadedFile): Promise<FileSource> {
  if (!file.path) {
    const data = file.buffer;
    return {
      size: data.length,
      head: data.subarray(0, HEAD_BYTES),
      sha256: createHash('sha256').update(data).digest('hex'),
      open: () => Readable.from([data]),
    };
  }
  const hash = createHash('sha256');
  let head = Buffer.alloc(0);
  for await (const chunk of createReadStream(file.path)) {
    const buf = chunk as Buffer;
    if (head.length < HEAD_BYTES) head = Buffer.concat([head, buf.subarray(0, HEAD_BYTES - head.length)]);
    hash.update(buf);
  }
  return { size: file.size, head, sha256: hash.digest('hex'), open: () => createReadStream(file.path) };
}

/** The one file `multipartBody` read (`single`), if any. */
export const uploadedFile = (req: Request): UploadedFile | undefined => req.file;

/** The files `multipartBody` read (`multiple`), in the order they came. */
export const uploadedFiles = (req: Request): UploadedFile[] => (Array.isArray(req.files) ? req.files : []);
