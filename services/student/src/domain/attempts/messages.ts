import { conflict, notFound } from '@readiness/kit/errors';

/* What the student's flow says: the SPEC's messages, and the refusals every use case of an attempt shares. */

export const STARTED_MESSAGE = 'Assessment started. Good luck!';
export const SUBMITTED_MESSAGE = 'Assessment submitted successfully!';
/** A Start that waits its turn in the waiting room (202): nothing has started. */
export const IN_LINE_MESSAGE = 'You are in line to start';
export const ALREADY_COMPLETED_MESSAGE = 'Assessment already completed!';
export const NO_ASSESSMENT_MESSAGE = 'No assessment found';

export const attemptNotFound = () => notFound('Attempt not found', 'attempt_not_found');
export const attemptClosed = () =>
  conflict('This attempt is closed: it was submitted or its time is over', 'attempt_closed');
