import { forwardRef, useEffect, useId, type InputHTMLAttributes } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { DialogActions, Input, Modal } from '../../../components/ui';
import { failAtField } from '../../../lib/form-errors';
import { notify } from '../../../lib/toast';
import { extraTimeField, useSetExtraTimeMutation, type Student } from '../api/students-api';

/** The extra-time percentage field, with the usual steps offered as suggestions. */
export const ExtraTimeInput = forwardRef<
  HTMLInputElement,
  InputHTMLAttributes<HTMLInputElement> & { error?: string }
>(function ExtraTimeInput({ error, ...rest }, ref) {
  const steps = useId();
  return (
    <>
      <Input
        ref={ref}
        label="Extra time (%)"
        type="number"
        inputMode="numeric"
        min={0}
        max={300}
        step={1}
        list={steps}
        hint="An accommodation: 0, 25, 50, 100 or any whole percentage up to 300."
        error={error}
        {...rest}
      />
      <datalist id={steps}>
        {[0, 25, 50, 100].map((v) => (
          <option key={v} value={v} />
        ))}
      </datalist>
    </>
  );
});

const schema = z.object({ extraTimePercent: extraTimeField });
type ExtraTimeForm = z.infer<typeof schema>;

export function ExtraTimeModal({ student, onClose }: { student: Student | null; onClose: () => void }) {
  const [save, { isLoading }] = useSetExtraTimeMutation();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<ExtraTimeForm>({ resolver: zodResolver(schema) });

  useEffect(() => {
    if (student) reset({ extraTimePercent: student.extraTimePercent ?? 0 });
  }, [student, reset]);

  const onSubmit = async ({ extraTimePercent }: ExtraTimeForm) => {
    if (!student) return;
    try {
      await save({ id: student._id, extraTimePercent }).unwrap();
      notify.success(`Extra time for ${student.name} set to ${extraTimePercent}%`);
      onClose();
    } catch (err) {
      failAtField(err, 'Failed to update extra time', { setError, fields: ['extraTimePercent'] });
    }
  };

  return (
    <Modal
      open={student !== null}
      title="Extra Time"
      onClose={onClose}
      dismissible={!isLoading}
      size="sm"
      footer={
        <DialogActions formId="extra-time-form" submitLabel="Save" busy={isLoading} onCancel={onClose} />
      }
    >
      <form id="extra-time-form" className="form" onSubmit={handleSubmit(onSubmit)} noValidate>
        <p className="muted">
          {student?.name}&apos;s time limit grows by this share of the assessment&apos;s.
        </p>
        <ExtraTimeInput
          error={errors.extraTimePercent?.message}
          {...register('extraTimePercent', { valueAsNumber: true })}
        />
      </form>
    </Modal>
  );
}
