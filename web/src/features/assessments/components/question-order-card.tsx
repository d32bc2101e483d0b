import { useFormContext } from 'react-hook-form';
import { Card } from '../../../components/ui';
import { useAdminT } from '../../../i18n/admin/admin-i18n';
import type { AssessmentForm } from '../api/assessment-schema';
import { Checkbox } from './fields';

/** Whether each student gets their own order of the questions and of the multiple-choice options. */
export function QuestionOrderCard() {
  const t = useAdminT();
  const { register } = useFormContext<AssessmentForm>();
  const questionsPath = 'shuffleQuestions';
  const optionsPath = 'shuffleOptions';
  return (
    <Card title={t('assessments.order.title')}>
      <div className="form">
        <Checkbox
          label={t('assessments.order.shuffleQuestions')}
          hint={t('assessments.order.shuffleQuestionsHint')}
          {...register(questionsPath)}
        />
        <Checkbox
          label={t('assessments.order.shuffleOptions')}
          hint={t('assessments.order.shuffleOptionsHint')}
          {...register(optionsPath)}
        />
      </div>
    </Card>
  );
}
