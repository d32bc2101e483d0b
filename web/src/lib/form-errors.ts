import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { endedSession, serverMessage } from './errors';
import { notifyFailure } from './toast';

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
 * server names it in `field`, or its `code` is listed in `codes`: a taken e-mail, a wrong current password)
 * shows the server's message at that field, which takes the focus; any other failure is a toast, as
 * `notifyFailure` shows it (SPEC §8: the server's message, else `fallback`).
 */
export function failAtField<T extends FieldValues>(
  error: unknown,
  fallback: string,
  form: {
    setError: UseFormSetError<T>;
    fields: ReadonlyArray<Path<T>>;
    codes?: Partial<Record<string, Path<T>>>;
  },
): void {
  if (endedSession(error)) return;
  const body = errorBody(error);
  const named = form.fields.find((f) => f === body?.field);
  const target = named ?? (typeof body?.code === 'string' ? form.codes?.[body.code] : undefined);
  const message = serverMessage(error);
  if (target && message) {
    form.setError(target, { type: 'server', message }, { shouldFocus: true });
    return;
  }
  notifyFailure(error, fallback);
}
