import { AppError, badRequest } from '@readiness/kit/errors';
import type { Imported } from './model';
import { fromMoodleXml } from './moodle-xml';
import { fromQtiPackage } from './qti';
import { fromQti12, holdsQti12 } from './qti12';
import { parseXml } from './xml';
import { readZip } from './zip';

/** At most this many items are read from one file; the editor holds 500 questions. */
export const MAX_ITEMS = 1000;

const NOT_READ =
  'This file is neither Moodle XML nor a QTI package (QTI 3.0 or 2.1, or QTI 1.2 as Canvas exports it: .zip or .imscc): nothing was imported';

const isZip = (data: Buffer) => data.length >= 4 && data[0] === 0x50 && data[1] === 0x4b;

/** The file's text when it is UTF-8 XML (a byte-order mark allowed), else undefined. */
function xmlText(data: Buffer): string | undefined {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(data).replace(/^\uFEFF/, '');
  return /^\s*</.test(text) && !text.includes('\u0000') ? text : undefined;
}

/**
 * Reads an uploaded file by what it holds, not by its name (a ZIP named .xml is read as a ZIP): Moodle XML, a QTI
 * 3.0/2.1 package or item, or QTI 1.2 as Canvas exports it (a quiz's XML, a quiz export or a course cartridge). Anything else is a 400 naming the formats that are read.
 */
export function readContentFile(data: Buffer): Imported {
  let imported: Imported;
  if (isZip(data)) {
    const files = readZip(data);
    imported = holdsQti12(files) ? fromQti12(files) : fromQtiPackage(files);
  } else {
    const xml = xmlText(data);
    if (!xml) throw badRequest(NOT_READ, 'import_format');
    const root = parseXml(xml, 'The file');
    if (root.name === 'quiz') imported = fromMoodleXml(root);
    else if (root.name === 'qti-assessment-item' || root.name === 'assessmentItem')
      imported = fromQtiPackage(new Map([['item.xml', data]]));
    else if (root.name === 'questestinterop') imported = fromQti12(new Map([['quiz.xml', data]]));
    else throw badRequest(NOT_READ, 'import_format');
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
