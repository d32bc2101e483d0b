import { Card } from '../../../components/ui';

export function StudentsPage() {
  return (
    <Card>
      <p className="muted">Invite students, follow their progress and resend invitations.</p>
    </Card>
  );
}
