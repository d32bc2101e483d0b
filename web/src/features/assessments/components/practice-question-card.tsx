import { useId, type ChangeEvent } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { Card, Select, TextArea } from '../../../components/ui';
import { bindFields } from '../../../lib/forms';
import { useAdminT } from '../../../i18n/admin/admin-i18n';
import { newOption, type AssessmentForm } from '../api/assessment-schema';
import { PRACTICE_TYPES, YES_NO } from '../api/types';
import { Checkbox, GroupError } from './fields';
import { OptionsEditor } from './options-editor';

/**
 * The one untimed question students may try on the welcome page before Start: offered or not, its type, its text,
 * its options when it is a multiple-choice one, and its answer. Unticking the box keeps the draft; a save then
 * sends no practice question.
 */
/** Where the practice question's answer is in the form. */
const answerPath = 'practice.correctAnswer';

export function PracticeQuestionCard() {
  const t = useAdminT();
  const label = t('assessments.practice.label');
  const form = useFormContext<AssessmentForm>();
  const { register, control, getValues, setValue, clearErrors, formState } = form;
  const field = bindFields(form);
  const enabled = useWatch({ control, name: 'practice.enabled' });
  const type = useWatch({ control, name: 'practice.type' });
  const options = useWatch({ control, name: 'practice.options' });
  const errors = formState.errors.practice;
  const answerLabelId = useId();

  // The answer of one type means nothing in the other: the admin chooses it again.
  const changeType = (event: ChangeEvent<HTMLSelectElement>) => {
    if (event.target.value === 'multiple_choice' && getValues('practice.options').length === 0) {
      setValue('practice.options', [newOption(), newOption()], { shouldDirty: true });
    }
    setValue(answerPath, '', { shouldDirty: true });
  };

  // A question that is not offered is not checked: its messages go with the box.
  const toggle = (event: ChangeEvent<HTMLInputElement>) => {
    if (!event.target.checked) clearErrors('practice');
  };

  const answers =
    type === 'yes_no'
      ? YES_NO
      : options.map((o, i) => ({
          value: o.id,
          label: o.text.trim() || t('assessments.options.option', { number: i + 1 }),
        }));

  return (
    <Card title={t('assessments.practice.title')}>
      <div className="form">
        <Checkbox
          label={t('assessments.practice.offer')}
          hint={t('assessments.practice.offerHint')}
          {...register('practice.enabled', { onChange: toggle })}
        />
        {enabled && (
          <div className="form practice-editor" role="group" aria-label={label}>
            <div className="form-grid">
              <Select
                label={t('assessments.question.type')}
                options={PRACTICE_TYPES}
                {...register('practice.type', { onChange: changeType })}
              />
            </div>
            <TextArea label={t('assessments.practice.text')} rows={2} {...field('practice.question')} />
            {type === 'multiple_choice' && (
              <OptionsEditor
                at="practice"
                label={label}
                error={errors?.options?.message ?? errors?.options?.root?.message}
              />
            )}
            <div className="field" role="radiogroup" aria-labelledby={answerLabelId}>
              <p className="field__label" id={answerLabelId}>
                {t('assessments.question.correctAnswer')}
              </p>
              <div className="practice-editor__answers">
                {answers.map((answer) => (
                  <label key={answer.value} className="check">
                    <input
                      type="radio"
                      className="check__box"
                      value={answer.value}
                      {...register(answerPath)}
                    />
                    <span>{answer.label}</span>
                  </label>
                ))}
              </div>
              <GroupError message={errors?.correctAnswer?.message} />
            </div>
          </div>
        )}
      </div>
    </Card>
  );
}
