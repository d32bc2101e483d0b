import { useFormContext } from 'react-hook-form';
import { Card, Input, NumberInput, TextArea } from '../../../components/ui';
import { bindFields } from '../../../lib/forms';
import { useAdminT } from '../../../i18n/admin/admin-i18n';
import type { AssessmentForm } from '../api/assessment-schema';

/** The assessment's title, description, time limit and passing score. */
export function BasicSettingsCard() {
  const t = useAdminT();
  const field = bindFields(useFormContext<AssessmentForm>());
  const timeLimitPath = 'timeLimit';
  const passingScorePath = 'passingScore';
  return (
    <Card title={t('assessments.basicSettings.title')}>
      <div className="form">
        <Input label={t('assessments.basicSettings.titleField')} {...field('title')} />
        <TextArea label={t('assessments.basicSettings.description')} {...field('description')} />
        <div className="form-grid">
          <NumberInput
            label={t('assessments.basicSettings.timeLimit')}
            min={1}
            step={1}
            {...field(timeLimitPath, { valueAsNumber: true })}
          />
          <NumberInput
            label={t('assessments.basicSettings.passingScore')}
            min={0}
            max={100}
            {...field(passingScorePath, { valueAsNumber: true })}
          />
        </div>
      </div>
    </Card>
  );
}
