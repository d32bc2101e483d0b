import { useFormContext, useWatch } from 'react-hook-form';
import { Trash2 } from 'lucide-react';
import { AddButton, IconButton, Input } from '../../../components/ui';
import { bindFields } from '../../../lib/forms';
import { useAdminT } from '../../../i18n/admin/admin-i18n';
import { newOption, type AssessmentForm } from '../api/assessment-schema';
import { GroupError } from './fields';

/** Where a multiple-choice question is in the form: one of the questions, or the practice question. */
export type ChoiceQuestionPath = `questions.${number}` | 'practice';

interface OptionsEditorProps {
  at: ChoiceQuestionPath;
  /** The question's name in the labels: 'Question 2', 'Practice question'. */
  label: string;
  /** The message for the options as a whole (too few of them). */
  error?: string;
}

/** A multiple-choice question's options: each one's text, removable, and a button that adds one. */
export function OptionsEditor({ at, label, error }: OptionsEditorProps) {
  const t = useAdminT();
  const form = useFormContext<AssessmentForm>();
  const { control, getValues, setValue } = form;
  const field = bindFields(form);
  const options = useWatch({ control, name: `${at}.options` }) ?? [];
  const answerPath = `${at}.correctAnswer` as const;

  const addOption = () => setValue(`${at}.options`, [...options, newOption()], { shouldDirty: true });

  const removeOption = (optionIndex: number) => {
    const remaining = options.filter((_, i) => i !== optionIndex);
    setValue(`${at}.options`, remaining, { shouldDirty: true });
    // The answer cannot point at an option that is gone.
    if (getValues(answerPath) === options[optionIndex]?.id) {
      setValue(answerPath, remaining[0]?.id ?? '', { shouldDirty: true });
    }
  };

  return (
    <div
      className="options-editor"
      role="group"
      aria-label={t('assessments.options.groupLabel', { question: label })}
    >
      <p className="field__label">{t('assessments.options.title')}</p>
      {options.map((option, optionIndex) => (
        <div className="options-editor__row" key={option.id}>
          <Input
            label={t('assessments.options.option', { number: optionIndex + 1 })}
            {...field(`${at}.options.${optionIndex}.text`)}
          />
          <IconButton
            label={t('assessments.options.remove', { number: optionIndex + 1, question: label })}
            icon={<Trash2 size={16} />}
            className="btn--danger-text"
            onClick={() => removeOption(optionIndex)}
          />
        </div>
      ))}
      <GroupError message={error} />
      <div>
        <AddButton onClick={addOption}>{t('assessments.options.add')}</AddButton>
      </div>
    </div>
  );
}
