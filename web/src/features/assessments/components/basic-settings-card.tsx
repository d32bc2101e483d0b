import { useFormContext } from 'react-hook-form';
import { Card, Input, NumberInput, TextArea } from '../../../components/ui';
import { bindFields } from '../../../lib/forms';
import type { AssessmentForm } from '../api/assessment-schema';

/** The assessment's title, description, time limit and passing score. */
export function BasicSettingsCard() {
  const field = bindFields(useFormContext<AssessmentForm>());
  return (
    <Card title="Basic Settings">
      <div className="form">
        <Input label="Title" {...field('title')} />
        <TextArea label="Description" {...field('description')} />
        <div className="form-grid">
          <NumberInput
            label="Time limit (minutes)"
            min={1}
            step={1}
            {...field('timeLimit', { valueAsNumber: true })}
          />
          <NumberInput
            label="Passing score (%)"
            min={0}
            max={100}
            {...field('passingScore', { valueAsNumber: true })}
          />
        </div>
      </div>
    </Card>
  );
}
