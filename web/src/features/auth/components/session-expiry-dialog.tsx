import { useEffect, useRef } from 'react';
import { Button, Modal } from '../../../components/ui';
import { formatTime } from '../../../lib/format';
import { useAppDispatch } from '../../../lib/hooks';
import { logout } from '../auth-slice';
import { useSessionExpiry } from '../session-expiry';
import { useAdminT } from '../../../i18n/admin/admin-i18n';

/**
 * The warning before a session ends: 'Stay signed in' has the focus, so one key press extends it; a session
 * at its maximum age says so and when it ends.
 */
export function SessionExpiryDialog() {
  const { notice, busy, staySignedIn, dismiss } = useSessionExpiry();
  const t = useAdminT();
  const dispatch = useAppDispatch();
  const primary = useRef<HTMLButtonElement>(null);
  const open = notice !== null;
  const final = notice?.final ?? false;

  // After the dialog has placed its own focus: the one key press goes to the main action.
  useEffect(() => {
    if (open) primary.current?.focus();
  }, [open, final]);

  if (!notice) return null;
  const endsAt = formatTime(notice.endsAt);
  return (
    <Modal
      open
      size="sm"
      title={final ? t('auth.expiry.finalTitle') : t('auth.expiry.title')}
      onClose={dismiss}
      dismissible={!busy}
      footer={
        final ? (
          <Button ref={primary} onClick={dismiss}>
            {t('auth.expiry.ok')}
          </Button>
        ) : (
          <>
            <Button variant="secondary" onClick={() => void dispatch(logout())} disabled={busy}>
              {t('auth.signOut')}
            </Button>
            <Button ref={primary} onClick={() => void staySignedIn()} loading={busy}>
              {t('auth.expiry.stay')}
            </Button>
          </>
        )
      }
    >
      {final ? <p>{t('auth.expiry.finalBody', { endsAt })}</p> : <p>{t('auth.expiry.body', { endsAt })}</p>}
      {notice.failed && (
        <p role="alert" className="field__error">
          {t('auth.expiry.unreachable')}
        </p>
      )}
    </Modal>
  );
}
