import type { NextFunction, Request, Response } from 'express';
import { z } from 'zod';
import { AppError } from '../errors';

/* eslint-disable no-control-regex -- matching control characters is the point of these two patterns */
/** No C0 control (NUL to US), DEL or C1 control: nothing a person types into a one-line field. */
const SINGLE_LINE = /^[^\u0000-\u001f\u007f-\u009f]*$/;
/** The same, but tab, line feed and carriage return (line breaks pasted from Windows) are allowed. */
const MULTI_LINE = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]*$/;
/* eslint-enable no-control-regex */

const CONTROL_CHARACTER_CODE = 'control_character';
const controlCharacterMessage = (label: string) => `${label} must not contain control characters`;

export interface TextFieldOptions {
  /** Names the field in the messages, e.g. 'Email'. */
  label: string;
  /** Message for a missing value or a value that is not a string; `'<label> is required'` by default. */
  requiredMessage?: string;
  /** Free text (notes, descriptions): tab and line breaks are allowed, other controls are still refused. */
  multiLine?: boolean;
}

/**
 * The string every request schema starts from. Control characters are refused before any other rule
 * (NUL would otherwise reach PostgreSQL, which rejects it in text and turns a typo into a 500; the others
 * corrupt logs, mail headers and CSV exports). Chain the field's own rules after it.
 */
export function textField(options: TextFieldOptions): z.ZodString {
  const required = options.requiredMessage ?? `${options.label} is required`;
  return z
    .string({ error: required })
    .regex(options.multiLine ? MULTI_LINE : SINGLE_LINE, { message: controlCharacterMessage(options.label) });
}

const NAME_LETTER_MESSAGE = 'Name must contain a letter';
const NAME_DIRECTION_MESSAGE = 'Name has an unclosed direction control';

/** Letters that print nothing (Hangul fillers): a name of them alone would be an empty line on a certificate. */
const BLANK_LETTERS = /[\u115f\u1160\u3164\uffa0]/gu;

/** True when the text holds at least one letter that is seen on the page, in any script. */
const hasVisibleLetter = (text: string) => /\p{L}/u.test(text.replace(BLANK_LETTERS, ''));

const EMBEDDINGS = '\u202a\u202b\u202d\u202e';
const POP_EMBEDDING = '\u202c';
const ISOLATES = '\u2066\u2067\u2068';
const POP_ISOLATE = '\u2069';

/**
 * True when every direction control in the text is closed inside it, innermost first: an embedding or override
 * (U+202A, U+202B, U+202D, U+202E) by U+202C, an isolate (U+2066 to U+2068) by U+2069. An open one would carry on
 * past the name and turn around the sentence it is printed in (dates and scores included); a closer with nothing
 * of its kind to close is refused too, as nothing a person types has one.
 */
function directionControlsClosed(text: string): boolean {
  const open: string[] = [];
  for (const c of text) {
    if (EMBEDDINGS.includes(c)) open.push(POP_EMBEDDING);
    else if (ISOLATES.includes(c)) open.push(POP_ISOLATE);
    else if (c === POP_EMBEDDING || c === POP_ISOLATE) {
      if (open.pop() !== c) return false;
    }
  }
  return open.length === 0;
}

/**
 * A person's name (an administrator's, a student's: forms, CSV rows): trimmed, 2 to 100 characters, with a letter
 * one can see and no direction control left open. The pages, mails and PDFs isolate every name as well; these
 * rules keep a name from being blank or from turning its surroundings around where something does not.
 */
export const personNameField = textField({ label: 'Name' })
  .trim()
  .min(1, 'Name is required')
  .refine(hasVisibleLetter, { message: NAME_LETTER_MESSAGE, abort: true })
  .min(2, 'Name must be at least 2 characters')
  .max(100, 'Name must be at most 100 characters')
  .refine(directionControlsClosed, NAME_DIRECTION_MESSAGE);

const INVALID_EMAIL_MESSAGE = 'Invalid email address';

/**
 * One mailbox, as RFC 5321 lets it travel: a dot-atom local part of at most 64 characters (no quotes, angle
 * brackets, commas, semicolons or white space, so a value can never be read as a list or a display name), an @,
 * and a host name of dot-separated labels; 254 characters in all. The web app's forms hold the same pattern.
 */
export const EMAIL_PATTERN =
  /^(?=[^@]{1,64}@)(?=.{3,254}$)[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/** The e-mail field of every form and CSV row: trimmed, one address, stored lower-cased (unique regardless of case). */
export const emailField = textField({ label: 'Email' })
  .trim()
  .min(1, 'Email is required')
  .regex(EMAIL_PATTERN, INVALID_EMAIL_MESSAGE)
  .transform((v) => v.toLowerCase());

/** True when any string in the value (keys included) holds a NUL character. */
function holdsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 64 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((v) => holdsNul(v, depth + 1));
  return Object.entries(value as Record<string, unknown>).some(
    ([k, v]) => k.includes('\u0000') || holdsNul(v, depth + 1),
  );
}

/**
 * Refuses a request whose path, JSON body or query holds a NUL anywhere, also in fields no schema names, so that
 * no handler can pass one on to PostgreSQL. Schemas refuse the other control characters field by field.
 */
export function refuseNul(req: Request, _res: Response, next: NextFunction): void {
  // The path too: Express decodes `%00` into a route parameter (`/api/admin/results/%00/pdf`).
  if (/%00/.test(req.path) || holdsNul(req.body) || holdsNul(req.query)) {
    next(new AppError(CONTROL_CHARACTER_CODE, 'Request must not contain NUL characters', 400));
    return;
  }
  next();
}
