import { AppError, badRequest } from '@readiness/kit/errors';
import type { Imported } from './model';
import { fromMoodleXml } from './moodle-xml';
import { fromQtiPackage, QtiVersionError } from './qti';
import { parseXml } from './xml';
import { readZip } from './zip';

/** At most this many items are read from one file; the editor holds 500 questions. */
export const MAX_ITEMS = 1000;

const NOT_READ = 'This file is neither Moodle XML nor a QTI 3.0 or 2.1 package (.zip): nothing was imported';
const QTI_1 =
  'This is a QTI 1.2 package (as Canvas exports): only QTI 3.0 and 2.1 packages and Moodle XML are read for now';

const isZip = (data: Buffer) => data.length >= 4 && data[0] === 0x50 && data[1] === 0x4b;

/** The file's text when it is UTF-8 XML (a byte-order mark allowed), else undefined. */
function xmlText(data: Buffer): string | undefined {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(data).replace(/^\uFEFF/, '');
  return /^\s*</.test(text) && !text.includes('\u0000') ? text : undefined;
}

/**
 * Reads an uploaded file by what it holds, not by its name (a ZIP named .xml is read as a ZIP): Moodle XML, a QTI
 * package, or one QTI item. Anything else is a 400 naming the formats that are read.
 */
export function readContentFile(data: Buffer): Imported {
  let imported: Imported;
  try {
    if (isZip(data)) {
      imported = fromQtiPackage(readZip(data));
    } else {
      const xml = xmlText(data);
      if (!xml) throw badRequest(NOT_READ, 'import_format');
      const root = parseXml(xml, 'The file');
      if (root.name === 'quiz') imported = fromMoodleXml(root);
      else if (root.name === 'qti-assessment-item' || root.name === 'assessmentItem')
        imported = fromQtiPackage(new Map([['item.xml', data]]));
      else if (root.name === 'questestinterop') throw new QtiVersionError();
      else throw badRequest(NOT_READ, 'import_format');
    }
  } catch (err) {
    if (err instanceof QtiVersionError) throw badRequest(QTI_1, 'import_format');
    throw err;
  }
  const items = imported.questions.length + imported.leftOut.length;
  if (items > MAX_ITEMS) {
    throw new AppError(
      'import_too_large',
      `The file holds ${items} items; at most ${MAX_ITEMS} are read at once: nothing was imported`,
      413,
    );
  }
  if (imported.questions.length === 0 && imported.leftOut.length === 0) {
    throw badRequest('The file holds no questions: nothing was imported', 'import_empty');
  }
  return imported;
}
