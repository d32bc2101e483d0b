import type { ChangeEvent } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { Trash2 } from 'lucide-react';
import { IconButton, NumberInput, Select, TextArea } from '../../../components/ui';
import { bindFields } from '../../../lib/forms';
import { useAdminT } from '../../../i18n/admin/admin-i18n';
import { retype, type AssessmentForm } from '../api/assessment-schema';
import { QUESTION_TYPES, YES_NO, type Question, type QuestionType } from '../api/types';
import { Checkbox } from './fields';
import { DownloadableFileField } from './downloadable-file-field';
import { OptionsEditor } from './options-editor';

interface QuestionEditorProps {
  index: number;
  onRemove: () => void;
}

/** One question of the edit form, with the fields its type needs (SPEC §3 Question). */
export function QuestionEditor({ index, onRemove }: QuestionEditorProps) {
  const t = useAdminT();
  const form = useFormContext<AssessmentForm>();
  const { register, control, getValues, setValue, formState } = form;
  const field = bindFields(form);
  const type = useWatch({ control, name: `questions.${index}.type` });
  const options = useWatch({ control, name: `questions.${index}.options` }) ?? [];
  const sections = useWatch({ control, name: 'sections' });
  const errors = formState.errors.questions?.[index];
  const label = t('assessments.question.label', { number: index + 1 });
  const at = `questions.${index}` as const;
  const instructionsPath = `${at}.fileInstructions` as const;

  const changeType = (event: ChangeEvent<HTMLSelectElement>) => {
    const next = retype(getValues(at) as Question, event.target.value as QuestionType);
    setValue(at, next as AssessmentForm['questions'][number], { shouldDirty: true });
  };

  return (
    <fieldset className="question-editor">
      <legend className="question-editor__legend">{label}</legend>
      <div className="question-editor__remove">
        <IconButton
          label={t('assessments.question.remove', { number: index + 1 })}
          icon={<Trash2 size={16} />}
          className="btn--danger-text"
          onClick={onRemove}
        />
      </div>
      <TextArea
        label={t('assessments.question.text', { number: index + 1 })}
        rows={2}
        {...field(`${at}.question`)}
      />
      <div className="form-grid">
        <Select
          label={t('assessments.question.type')}
          options={QUESTION_TYPES}
          {...register(`${at}.type`, { onChange: changeType })}
        />
        <Select
          label={t('assessments.question.section')}
          options={sections.map((s) => ({
            value: String(s.id),
            label: t('assessments.sections.option', { id: s.id, title: s.title }),
          }))}
          {...field(`${at}.section`, { setValueAs: (v: string | number) => Number(v) })}
        />
        <NumberInput
          label={t('assessments.question.points')}
          min={1}
          step={1}
          {...field(`${at}.points`, { valueAsNumber: true })}
        />
        {type === 'yes_no' && (
          <Select
            label={t('assessments.question.correctAnswer')}
            options={YES_NO}
            {...field(`${at}.correctAnswer`)}
          />
        )}
        {type === 'multiple_choice' && (
          <Select
            key={options.map((o) => o.id).join()}
            label={t('assessments.question.correctAnswer')}
            placeholder={t('assessments.question.chooseOption')}
            options={options.map((o, i) => ({
              value: o.id,
              label: o.text || t('assessments.options.option', { number: i + 1 }),
            }))}
            {...field(`${at}.correctAnswer`)}
          />
        )}
      </div>
      <Checkbox label={t('assessments.question.required')} {...register(`${at}.required`)} />

      {type === 'multiple_choice' && (
        <OptionsEditor
          at={at}
          label={label}
          error={errors?.options?.message ?? errors?.options?.root?.message}
        />
      )}

      {type === 'file_upload' && (
        <TextArea
          label={t('assessments.question.fileInstructions')}
          rows={2}
          {...register(instructionsPath)}
        />
      )}
      <DownloadableFileField index={index} label={label} />
    </fieldset>
  );
}
