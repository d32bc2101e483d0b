import { forwardRef, type InputHTMLAttributes } from 'react';

/** A checkbox with its label on the right, the whole line clickable. */
export const Checkbox = forwardRef<
  HTMLInputElement,
  InputHTMLAttributes<HTMLInputElement> & { label: string }
>(function Checkbox({ label, ...rest }, ref) {
  return (
    <label className="check">
      <input ref={ref} type="checkbox" className="check__box" {...rest} />
      <span>{label}</span>
    </label>
  );
});

/** A message for the whole group of fields above it (e.g. a question's options), announced when it appears. */
export function GroupError({ message }: { message?: string }) {
  if (!message) return null;
  return (
    <p className="field__error" role="alert">
      {message}
    </p>
  );
}
