import { Card } from '../../../components/ui';

export function AssessmentsPage() {
  return (
    <Card>
      <p className="muted">Edit the assessment settings, sections and questions, and review its versions.</p>
    </Card>
  );
}
