import { useFormContext } from 'react-hook-form';
import { Card } from '../../../components/ui';
import type { AssessmentForm } from '../api/assessment-schema';
import { Checkbox } from './fields';

/** Whether each student gets their own order of the questions and of the multiple-choice options. */
export function QuestionOrderCard() {
  const { register } = useFormContext<AssessmentForm>();
  return (
    <Card title="Question Order">
      <div className="form">
        <Checkbox
          label="Shuffle questions within each section"
          hint="Each student sees the questions of a section in their own order, fixed when they start."
          {...register('shuffleQuestions')}
        />
        <Checkbox
          label="Shuffle multiple-choice options"
          hint="Each student sees the options of every multiple-choice question in their own order."
          {...register('shuffleOptions')}
        />
      </div>
    </Card>
  );
}
