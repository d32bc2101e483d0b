import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ui';
import { notify, notifyFailure } from '../../../lib/toast';
import { useResetAdminFactorsMutation } from '../../auth/api/multi-factor-api';
import type { Admin } from '../../auth/api/types';

/**
 * Resetting an admin's second factors (a lost phone), after a confirmation: `ask(admin)` opens it, `dialog`
 * is placed once on the page.
 */
export function useResetFactorsDialog() {
  const [target, setTarget] = useState<Admin | null>(null);
  const [resetFactors, { isLoading }] = useResetAdminFactorsMutation();

  const confirm = async () => {
    if (!target) return;
    try {
      await resetFactors(target._id).unwrap();
      notify.success(`Two-factor authentication reset for ${target.name}`);
      setTarget(null);
    } catch (err) {
      notifyFailure(err, 'Failed to reset two-factor authentication');
    }
  };

  const dialog = (
    <ConfirmDialog
      open={target !== null}
      title="Reset Two-Factor Authentication"
      message={
        <>
          <p>
            Reset two-factor authentication for <strong>{target?.name}</strong>?
          </p>
          <p className="muted">
            Their authenticator app and recovery codes stop working at once. Their next sign-in asks for the
            password only, unless two-factor authentication is required for every admin: then they set up a
            new app as they sign in.
          </p>
        </>
      }
      confirmLabel="Reset"
      tone="danger"
      busy={isLoading}
      onConfirm={confirm}
      onCancel={() => setTarget(null)}
    />
  );
  return { ask: setTarget, dialog };
}
