import { forwardRef, useId } from 'react';
import { z } from 'zod';
import { FormModal, NumberInput, type InputProps } from '../../../components/ui';
import { useDialogForm } from '../../../lib/forms';
import { useAdminT } from '../../../i18n/admin/admin-i18n';
import { extraTimeField, useSetExtraTimeMutation } from '../api/students-api';
import type { Student } from '../api/types';

/** The extra-time percentage field, with the usual steps offered as suggestions. */
export const ExtraTimeInput = forwardRef<HTMLInputElement, Omit<InputProps, 'label'>>(
  function ExtraTimeInput(props, ref) {
    const t = useAdminT();
    const steps = useId();
    return (
      <>
        <NumberInput
          ref={ref}
          label={t('students.extraTime.label')}
          min={0}
          max={300}
          step={1}
          list={steps}
          hint={t('students.extraTime.hint')}
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
  const t = useAdminT();
  const [save, { isLoading }] = useSetExtraTimeMutation();
  const { field, modal } = useDialogForm({
    schema,
    openFor: student,
    values: ({ extraTimePercent }) => ({ extraTimePercent: extraTimePercent ?? 0 }),
    save: async ({ extraTimePercent }, { _id, name }) => {
      await save({ id: _id, extraTimePercent }).unwrap();
      return t('students.extraTime.saved', { name, percent: extraTimePercent });
    },
    failure: t('students.extraTime.failed'),
    onClose,
  });

  return (
    <FormModal
      {...modal}
      title={t('students.extraTime.title')}
      submitLabel={t('students.extraTime.save')}
      busy={isLoading}
      size="sm"
    >
      <p className="muted">{t('students.extraTime.text', { name: student?.name ?? '' })}</p>
      {}
      <ExtraTimeInput {...field('extraTimePercent', { valueAsNumber: true })} />
    </FormModal>
  );
}
