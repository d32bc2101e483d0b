import { forwardRef, useId } from 'react';
import { z } from 'zod';
import { FormModal, NumberInput, type InputProps } from '../../../components/ui';
import { useDialogForm } from '../../../lib/forms';
import { extraTimeField, useSetExtraTimeMutation } from '../api/students-api';
import type { Student } from '../api/types';

/** The extra-time percentage field, with the usual steps offered as suggestions. */
export const ExtraTimeInput = forwardRef<HTMLInputElement, Omit<InputProps, 'label'>>(
  function ExtraTimeInput(props, ref) {
    const steps = useId();
    return (
      <>
        <NumberInput
          ref={ref}
          label="Extra time (%)"
          min={0}
          max={300}
          step={1}
          list={steps}
          hint="An accommodation: 0, 25, 50, 100 or any whole percentage up to 300."
          {...props}
        />
        <datalist id={steps}>
          {[0, 25, 50, 100].map((v) => (
            <option key={v} value={v} />
          ))}
        </datalist>
      </>
    );
  },
);

const schema = z.object({ extraTimePercent: extraTimeField });

export function ExtraTimeModal({ student, onClose }: { student: Student | null; onClose: () => void }) {
  const [save, { isLoading }] = useSetExtraTimeMutation();
  const { field, modal } = useDialogForm({
    schema,
    openFor: student,
    values: ({ extraTimePercent }) => ({ extraTimePercent: extraTimePercent ?? 0 }),
    save: async ({ extraTimePercent }, { _id, name }) => {
      await save({ id: _id, extraTimePercent }).unwrap();
      return `Extra time for ${name} set to ${extraTimePercent}%`;
    },
    failure: 'Failed to update extra time',
    onClose,
  });

  return (
    <FormModal {...modal} title="Extra Time" submitLabel="Save" busy={isLoading} size="sm">
      <p className="muted">{student?.name}&apos;s time limit grows by this share of the assessment&apos;s.</p>
      <ExtraTimeInput {...field('extraTimePercent', { valueAsNumber: true })} />
    </FormModal>
  );
}
