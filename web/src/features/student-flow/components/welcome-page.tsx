import { StudentShell } from './student-shell';

export function WelcomePage() {
  return (
    <StudentShell>
      <div className="card card__body">
        <h1 className="student__title">Distance Education Readiness Assessment</h1>
        <p className="muted">Your invitation is being checked.</p>
      </div>
    </StudentShell>
  );
}
