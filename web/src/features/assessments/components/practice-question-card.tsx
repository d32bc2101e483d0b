import { useId, type ChangeEvent } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { Card, Select, TextArea } from '../../../components/ui';
import { bindFields } from '../../../lib/forms';
import { newOption, type AssessmentForm } from '../api/assessment-schema';
import { PRACTICE_TYPES, YES_NO } from '../api/types';
import { Checkbox, GroupError } from './fields';
import { OptionsEditor } from './options-editor';

const LABEL = 'Practice question';

/**
 * The one untimed question students may try on the welcome page before Start: offered or not, its type, its text,
 * its options when it is a multiple-choice one, and its answer. Unticking the box keeps the draft; a save then
 * sends no practice question.
 */
export function PracticeQuestionCard() {
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
    setValue('practice.correctAnswer', '', { shouldDirty: true });
  };

  // A question that is not offered is not checked: its messages go with the box.
  const toggle = (event: ChangeEvent<HTMLInputElement>) => {
    if (!event.target.checked) clearErrors('practice');
  };

  const answers =
    type === 'yes_no'
      ? YES_NO
      : options.map((o, i) => ({ value: o.id, label: o.text.trim() || `Option ${i + 1}` }));

  return (
    <Card title="Practice Question">
      <div className="form">
        <Checkbox
          label="Offer a practice question before Start"
          hint="Students can try it on the welcome page before their time starts. It is never scored."
          {...register('practice.enabled', { onChange: toggle })}
        />
        {enabled && (
          <div className="form practice-editor" role="group" aria-label={LABEL}>
            <div className="form-grid">
              <Select
                label="Type"
                options={PRACTICE_TYPES}
                {...register('practice.type', { onChange: changeType })}
              />
            </div>
            <TextArea label="Question text" rows={2} {...field('practice.question')} />
            {type === 'multiple_choice' && (
              <OptionsEditor
                at="practice"
                label={LABEL}
                error={errors?.options?.message ?? errors?.options?.root?.message}
              />
            )}
            <div className="field" role="radiogroup" aria-labelledby={answerLabelId}>
              <p className="field__label" id={answerLabelId}>
                Correct answer
              </p>
              <div className="practice-editor__answers">
                {answers.map((answer) => (
                  <label key={answer.value} className="check">
                    <input
                      type="radio"
                      className="check__box"
                      value={answer.value}
                      {...register('practice.correctAnswer')}
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
