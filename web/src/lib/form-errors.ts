import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { endedSession, serverMessage } from './errors';
import { notifyFailure } from './toast';

/**
 * The field a refusal is about when the server's error names none: its `code` (the services' `AppError` codes)
 * to the form field that shows it. One table for every form; a code applies to a form that has that field.
 */
const FIELD_OF_CODE: Readonly<Record<string, string>> = {
  // A taken address: a student already invited (student service), an admin's e-mail in use (auth).
  already_invited: 'email',
  email_taken: 'email',
  // Change password (auth).
  current_password_incorrect: 'currentPassword',
  password_unchanged: 'newPassword',
  // Editing an admin's role (auth).
  cannot_demote_self: 'role',
  last_super_admin: 'role',
  // Second factors (auth).
  invalid_code: 'code',
  invalid_recovery_code: 'recoveryCode',
  // A fresh proof of the person before a change of a factor (auth).
  wrong_password: 'password',
  // Time added to an attempt past the most it can be given (student, the Live screen's Add time).
  extension_limit: 'minutes',
  // An LMS connected already with this issuer and client ID (integrations).
  platform_exists: 'issuer',
};

/** The `field` and `code` of a server's error body, when it has them. */
function errorBody(error: unknown): { field?: unknown; code?: unknown } | undefined {
  if (typeof error !== 'object' || error === null || !('data' in error)) return undefined;
  const data = (error as { data: unknown }).data;
  return typeof data === 'object' && data !== null
    ? (data as { field?: unknown; code?: unknown })
    : undefined;
}

/**
 * Reports a failed form submit where the admin is looking: a refusal about one of the form's `fields` (the
 * server names it in `field`, or its `code` maps to it in `FIELD_OF_CODE`: a taken e-mail, a wrong current
 * password) shows the server's message at that field, which takes the focus; any other failure is a toast, as
 * `notifyFailure` shows it (SPEC §8: the server's message, else `fallback`).
 */
export function failAtField<T extends FieldValues>(
  error: unknown,
  fallback: string,
  form: { setError: UseFormSetError<T>; fields: ReadonlyArray<Path<T>> },
): void {
  if (endedSession(error)) return;
  const body = errorBody(error);
  const byCode = typeof body?.code === 'string' ? FIELD_OF_CODE[body.code] : undefined;
  // A list's item (`deploymentIds.0`) shows at the list's field.
  const named = typeof body?.field === 'string' ? body.field.split('.')[0] : undefined;
  const target = form.fields.find((f) => f === named) ?? form.fields.find((f) => f === byCode);
  const message = serverMessage(error);
  if (target && message) {
    form.setError(target, { type: 'server', message }, { shouldFocus: true });
    return;
  }
  notifyFailure(error, fallback);
}
