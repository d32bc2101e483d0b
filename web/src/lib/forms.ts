import { useEffect, useRef } from 'react';
import {
  get,
  useForm,
  type DefaultValues,
  type FieldError,
  type FieldValues,
  type FormState,
  type Path,
  type RegisterOptions,
  type UseFormReturn,
} from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { failAtField } from './form-errors';
import { notify } from './toast';

/** A whole number from `min` to `max`, blank included: every way to miss it is refused with the one `message`. */
export const wholeNumberField = (min: number, max: number, message: string) =>
  z.number({ error: message }).int(message).min(min, message).max(max, message);

/**
 * Ties the UI kit's fields to a react-hook-form form: `field(name)` is the field's registration and its
 * error message, spread onto an Input, a Select or a TextArea.
 */
export function bindFields<T extends FieldValues, C, O extends FieldValues>(form: UseFormReturn<T, C, O>) {
  return <N extends Path<T>>(name: N, options?: RegisterOptions<T, N>) => ({
    ...form.register(name, options),
    error: get<FormState<T>['errors'], FieldError | undefined>(form.formState.errors, name)?.message,
  });
}

interface DialogFormOptions<T extends FieldValues, S> {
  /** Checks the form; a refusal the server names one of its fields for shows at that field. */
  schema: z.ZodType<T, T> & { shape: object };
  /** What the dialog is open for: the record it edits, or `true`; `null` or `false` while it is closed. */
  openFor: S | null | false;
  /** The form's values for what it opens for; each opening starts from them. */
  values: (openFor: S) => DefaultValues<T>;
  /** Saves the checked values; resolves to the success toast's text. */
  save: (values: T, openFor: S) => Promise<string>;
  /** The toast's text for a failure the server does not explain. */
  failure: string;
  onClose: () => void;
}

/**
 * The form of a dialog that saves one thing: reset on each opening, checked by its schema, and on submit
 * saved, then a success toast and the dialog closes; a refusal shows at its field (`failAtField`), any other
 * failure as a toast. `modal` is what a FormModal takes from it: whether it is open, its closing and its submit.
 */
export function useDialogForm<T extends FieldValues, S>(options: DialogFormOptions<T, S>) {
  const { schema, openFor, failure, onClose } = options;
  const form = useForm<T>({ resolver: zodResolver(schema) });
  const { reset, setError, handleSubmit } = form;
  const values = useRef(options.values);
  values.current = options.values;

  useEffect(() => {
    if (openFor) reset(values.current(openFor));
  }, [openFor, reset]);

  const onSubmit = handleSubmit(async (checked) => {
    if (!openFor) return;
    try {
      notify.success(await options.save(checked, openFor));
      onClose();
    } catch (err) {
      failAtField(err, failure, { setError, fields: Object.keys(schema.shape) as Path<T>[] });
    }
  });
  const open = openFor !== null && openFor !== false;
  return { field: bindFields(form), modal: { open, onClose, onSubmit } };
}
