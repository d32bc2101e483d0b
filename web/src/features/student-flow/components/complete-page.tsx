import { Link, useParams } from 'react-router-dom';
import { StudentShell } from './student-shell';

export function CompletePage() {
  const { inviteToken } = useParams();
  return (
    <StudentShell>
      <div className="card card__body">
        <h1 className="student__title">Assessment Complete</h1>
        <p className="muted">
          <Link to={`/assessment/${inviteToken ?? ''}`}>Back to the assessment</Link>
        </p>
      </div>
    </StudentShell>
  );
}
