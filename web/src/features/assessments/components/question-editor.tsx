import type { ChangeEvent } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { Trash2 } from 'lucide-react';
import { IconButton, NumberInput, Select, TextArea } from '../../../components/ui';
import { bindFields } from '../../../lib/forms';
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
  const form = useFormContext<AssessmentForm>();
  const { register, control, getValues, setValue, formState } = form;
  const field = bindFields(form);
  const type = useWatch({ control, name: `questions.${index}.type` });
  const options = useWatch({ control, name: `questions.${index}.options` }) ?? [];
  const sections = useWatch({ control, name: 'sections' });
  const errors = formState.errors.questions?.[index];
  const label = `Question ${index + 1}`;
  const at = `questions.${index}` as const;

  const changeType = (event: ChangeEvent<HTMLSelectElement>) => {
    const next = retype(getValues(at) as Question, event.target.value as QuestionType);
    setValue(at, next as AssessmentForm['questions'][number], { shouldDirty: true });
  };

  return (
    <fieldset className="question-editor">
      <legend className="question-editor__legend">{label}</legend>
      <div className="question-editor__remove">
        <IconButton
          label={`Remove ${label}`}
          icon={<Trash2 size={16} />}
          className="btn--danger-text"
          onClick={onRemove}
        />
      </div>
      <TextArea label={`${label} text`} rows={2} {...field(`${at}.question`)} />
      <div className="form-grid">
        <Select label="Type" options={QUESTION_TYPES} {...register(`${at}.type`, { onChange: changeType })} />
        <Select
          label="Section"
          options={sections.map((s) => ({ value: String(s.id), label: `Section ${s.id}: ${s.title}` }))}
          {...field(`${at}.section`, { setValueAs: (v: string | number) => Number(v) })}
        />
        <NumberInput label="Points" min={1} step={1} {...field(`${at}.points`, { valueAsNumber: true })} />
        {type === 'yes_no' && (
          <Select label="Correct answer" options={YES_NO} {...field(`${at}.correctAnswer`)} />
        )}
        {type === 'multiple_choice' && (
          <Select
            key={options.map((o) => o.id).join()}
            label="Correct answer"
            placeholder="Choose the correct option"
            options={options.map((o, i) => ({ value: o.id, label: o.text || `Option ${i + 1}` }))}
            {...field(`${at}.correctAnswer`)}
          />
        )}
      </div>
      <Checkbox label="Required" {...register(`${at}.required`)} />

      {type === 'multiple_choice' && (
        <OptionsEditor
          at={at}
          label={label}
          error={errors?.options?.message ?? errors?.options?.root?.message}
        />
      )}

      {type === 'file_upload' && (
        <TextArea label="File instructions" rows={2} {...register(`${at}.fileInstructions`)} />
      )}
      <DownloadableFileField index={index} label={label} />
    </fieldset>
  );
}
