import { isMissingObject } from '@readiness/kit/storage';
import type { AssessmentVersion } from './assessment';
import type { AssessmentsDeps } from './assessments';
import type { ExportFiles } from './exchange/model';
import { toMoodleXml } from './exchange/moodle-xml';
import { toQtiPackage } from './exchange/qti';
import { writeZip } from './exchange/zip';

export const EXPORT_FORMATS = ['moodle-xml', 'qti3'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The file an export is sent as: its name, type and bytes. */
export interface ExportedFile {
  name: string;
  mimetype: string;
  data: Buffer;
}

const slug = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60) || 'assessment';

/** A version in an exchange format, its questions' files included (a file gone from storage is left out). */
export async function exportVersion(
  deps: Pick<AssessmentsDeps, 'storage'>,
  version: AssessmentVersion,
  format: ExportFormat,
): Promise<ExportedFile> {
  const files: ExportFiles = new Map();
  for (const q of version.questions) {
    const file = q.downloadableFile;
    if (!file || files.has(file.filename)) continue;
    try {
      files.set(file.filename, {
        originalName: file.originalName,
        data: await deps.storage.getBuffer(`questions/${file.filename}`),
      });
    } catch (err) {
      if (!isMissingObject(err)) throw err;
    }
  }
  const name = `${slug(version.title)}-v${version.version}`;
  if (format === 'moodle-xml') {
    return {
      name: `${name}-moodle.xml`,
      mimetype: 'application/xml; charset=utf-8',
      data: Buffer.from(toMoodleXml(version, files), 'utf8'),
    };
  }
  return {
    name: `${name}-qti3.zip`,
    mimetype: 'application/zip',
    data: writeZip(toQtiPackage(version, version.version, files)),
  };
}
