import { AppError } from '@readiness/kit/errors';
import type { Request, RequestHandler } from 'express';

export const JSON_TYPE = 'application/json';
export const MULTIPART_TYPE = 'multipart/form-data';

/** Whether the request says it carries a body (a length above 0, or chunks). */
const announcesBody = (req: Request) => {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
};

const unsupported = (message: string) => new AppError('unsupported_media_type', message, 415);

/**
 * The student's writes take only the bodies their page sends. Anything else (`text/plain`, a form post, which a
 * cross-site page can send without a preflight) is refused with 415 before it is read, and changes nothing. A
 * write with no body at all (start, a file's removal) passes.
 */
export function bodyOf(...types: string[]): RequestHandler {
  return (req, _res, next) => {
    if (!announcesBody(req) && !req.headers['content-type']) return next();
    if (req.is(types)) return next();
    next(unsupported(`Send the body as ${types.join(' or ')}`));
  };
}

/**
 * The submit's body, which it cannot do without: a submit with none, whatever type it names, is refused with 415
 * before anything is read, so it is never taken for a submission of no answers; the attempt stays open.
 */
export function submissionOf(...types: string[]): RequestHandler {
  const typed = bodyOf(...types);
  return (req, res, next) => {
    if (announcesBody(req)) return typed(req, res, next);
    next(
      unsupported(
        `The submission has no body: send the answers as ${types.join(' or ')} (nothing was submitted)`,
      ),
    );
  };
}
