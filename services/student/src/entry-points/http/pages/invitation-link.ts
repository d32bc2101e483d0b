import { LANGUAGES, languageSchema, type Language } from '@readiness/contracts';
import type { Request } from 'express';
import { z } from 'zod';
import { jsonBody } from '../json-body';

/** Any token: a malformed one answers the same 404 as an unknown, expired or deleted one. */
export const tokenParams = z.object({ token: z.string() });

/** The 404 every page answers to a link that opens nothing. */
export const INVALID_LINK = 'Invalid or expired invitation link (unknown, expired and deleted alike)';

/** The best of the languages for the browser's Accept-Language; null when it names none of them (or nothing). */
export const browserLanguage = (req: Request): Language | null =>
  req.headers['accept-language'] ? (req.acceptsLanguages(...LANGUAGES) as Language | false) || null : null;

/** The student's own switch on the pages: one of the languages. */
export const languageBody = jsonBody({ language: languageSchema });
