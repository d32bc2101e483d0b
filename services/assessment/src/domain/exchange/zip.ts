import { AppError, badRequest } from '@readiness/kit/errors';
import { unzipSync, zipSync } from 'fflate';

/** What a package may hold, checked against its central directory before anything is inflated. */
export const ZIP_LIMITS = { entries: 2000, totalBytes: 100 * 1024 * 1024 } as const;

/** A path inside a package that would land outside it if it were extracted (zip slip), or is no plain path. */
const unsafePath = (name: string) =>
  name.startsWith('/') ||
  name.includes('\\') ||
  /^[A-Za-z]:/.test(name) ||
  name.split('/').some((part) => part === '..') ||
  // eslint-disable-next-line no-control-regex -- a control character is never part of a file name we read
  /[\u0000-\u001f]/.test(name);

/**
 * A ZIP package read into memory: refused whole (400) when an entry's path could escape the package, and refused
 * (413) before any entry is inflated when it has more entries, or more bytes once inflated, than the limits. An
 * entry that inflates to more than its directory says is cut at the size it said, so a lying directory cannot
 * make it bigger either.
 */
export function readZip(data: Uint8Array, limits: { entries: number; totalBytes: number } = ZIP_LIMITS) {
  let entries = 0;
  let total = 0;
  let refused: AppError | undefined;
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(data, {
      filter(entry) {
        if (refused) return false;
        entries += 1;
        total += entry.originalSize;
        if (unsafePath(entry.name)) {
          refused = badRequest(
            `The package holds a file outside its own folder (${entry.name.slice(0, 100)}): nothing was read`,
            'import_unsafe_path',
          );
        } else if (entries > limits.entries) {
          refused = new AppError(
            'import_too_large',
            `The package holds more than ${limits.entries} files: nothing was read`,
            413,
          );
        } else if (total > limits.totalBytes) {
          refused = new AppError(
            'import_too_large',
            `The package holds more than ${Math.round(limits.totalBytes / (1024 * 1024))} MB once unpacked: nothing was read`,
            413,
          );
        }
        return false;
      },
    });
    if (refused) throw refused;
    files = unzipSync(data, { filter: (entry) => !entry.name.endsWith('/') });
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw badRequest('The ZIP package could not be read', 'import_zip');
  }
  return new Map(Object.entries(files).map(([name, bytes]) => [name, Buffer.from(bytes)]));
}

/** A ZIP package of the given files, by path. */
export const writeZip = (files: Record<string, Uint8Array>) => Buffer.from(zipSync(files, { level: 6 }));
