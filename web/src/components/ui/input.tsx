import {
  forwardRef,
  useId,
  useState,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import { Eye, EyeOff } from 'lucide-react';

/** What a field's control carries: its id, and the invalid state and description its label's field gives it. */
export interface FieldControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

export interface FormFieldProps {
  /** The control's id; without it, one is made up. */
  id?: string;
  label: string;
  error?: string;
  hint?: string;
  /** The control, given the props that tie it to the label, the hint and the error. */
  children: (control: FieldControlProps) => ReactNode;
}

/**
 * A labelled field: the label, the control, then its hint, or instead its error as an alert. The control is
 * described by the error when there is one, else by the hint.
 */
export function FormField({ id, label, error, hint, children }: FormFieldProps) {
  const generated = useId();
  const fieldId = id ?? generated;
  const describedBy = error ? `${fieldId}-error` : hint ? `${fieldId}-hint` : undefined;
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label className="field__label" htmlFor={fieldId}>
        {label}
      </label>
      {children({ id: fieldId, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {hint && !error && (
        <p className="field__hint" id={`${fieldId}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field__error" id={`${fieldId}-error`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

export interface InputProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string;
  hint?: string;
  leadingIcon?: ReactNode;
  /** A control inside the field's end (the password field's show / hide button). */
  trailing?: ReactNode;
}

export const Input = forwardRef<HTMLInputElement, InputProps>(function Input(
  { label, error, hint, leadingIcon, trailing, id, className, ...rest },
  ref,
) {
  const wrap = ['input-wrap', trailing && 'input-wrap--trailing', leadingIcon && 'input-wrap--leading'];
  return (
    <FormField id={id} label={label} error={error} hint={hint}>
      {(control) => (
        <div className={wrap.filter(Boolean).join(' ')}>
          {leadingIcon && <span className="input-wrap__icon">{leadingIcon}</span>}
          <input
            ref={ref}
            {...control}
            className={['input', className].filter(Boolean).join(' ')}
            {...rest}
          />
          {trailing}
        </div>
      )}
    </FormField>
  );
});

/** A field for a whole number, which phones type on their number pad. */
export const NumberInput = forwardRef<HTMLInputElement, InputProps>(function NumberInput(props, ref) {
  return <Input ref={ref} type="number" inputMode="numeric" {...props} />;
});

interface PasswordInputProps extends Omit<InputProps, 'type' | 'trailing'> {
  /** The eye button's name for screen readers while the password is hidden ('Show password'), in the page's language. */
  showLabel: string;
  /** Its name while the password is shown ('Hide password'). */
  hideLabel: string;
}

/** A password field whose eye / eye-off button shows or hides what was typed. */
export const PasswordInput = forwardRef<HTMLInputElement, PasswordInputProps>(function PasswordInput(
  { showLabel, hideLabel, ...props },
  ref,
) {
  const [visible, setVisible] = useState(false);
  return (
    <Input
      ref={ref}
      type={visible ? 'text' : 'password'}
      {...props}
      trailing={
        <button
          type="button"
          className="input-wrap__toggle"
          onClick={() => setVisible((v) => !v)}
          aria-label={visible ? hideLabel : showLabel}
          aria-pressed={visible}
        >
          {visible ? <EyeOff size={18} aria-hidden="true" /> : <Eye size={18} aria-hidden="true" />}
        </button>
      }
    />
  );
});

export interface SelectProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: string;
  error?: string;
  options: { value: string; label: string }[];
  placeholder?: string;
}

export const Select = forwardRef<HTMLSelectElement, SelectProps>(function Select(
  { label, error, options, placeholder, id, className, ...rest },
  ref,
) {
  return (
    <FormField id={id} label={label} error={error}>
      {(control) => (
        <select
          ref={ref}
          {...control}
          className={['input', 'select', className].filter(Boolean).join(' ')}
          {...rest}
        >
          {placeholder !== undefined && <option value="">{placeholder}</option>}
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );
});

export interface TextAreaProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  label: string;
  error?: string;
  hint?: string;
}

/** A multi-line field laid out and announced like Input (label, hint, error as an alert). */
export const TextArea = forwardRef<HTMLTextAreaElement, TextAreaProps>(function TextArea(
  { label, error, hint, id, ...rest },
  ref,
) {
  return (
    <FormField id={id} label={label} error={error} hint={hint}>
      {(control) => <textarea ref={ref} {...control} className="input textarea" rows={3} {...rest} />}
    </FormField>
  );
});
