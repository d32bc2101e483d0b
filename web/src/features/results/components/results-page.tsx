import { Card } from '../../../components/ui';

export function ResultsPage() {
  return (
    <Card>
      <p className="muted">Review completed assessments, download reports and certificates.</p>
    </Card>
  );
}
