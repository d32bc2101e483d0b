import { forwardRef, useId, type InputHTMLAttributes } from 'react';

/** A checkbox with its label on the right, the whole line clickable; a hint below it describes it. */
export const Checkbox = forwardRef<
  HTMLInputElement,
  InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: string }
>(function Checkbox({ label, hint, ...rest }, ref) {
  const hintId = useId();
  const box = (
    <label className="check">
      <input
        ref={ref}
        type="checkbox"
        className="check__box"
        aria-describedby={hint ? hintId : undefined}
        {...rest}
      />
      <span>{label}</span>
    </label>
  );
  if (!hint) return box;
  return (
    <div className="field">
      {box}
      <p className="field__hint" id={hintId}>
        {hint}
      </p>
    </div>
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
