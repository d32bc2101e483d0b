import { AccountSessions } from './account-sessions';

/** The admin's own account security. */
export function SecurityPage() {
  return (
    <div className="stack">
      <AccountSessions />
    </div>
  );
}
