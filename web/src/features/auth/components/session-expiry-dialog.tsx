import { useEffect, useRef } from 'react';
import { Button, Modal } from '../../../components/ui';
import { formatTime } from '../../../lib/format';
import { useAppDispatch } from '../../../lib/hooks';
import { logout } from '../auth-slice';
import { useSessionExpiry } from '../session-expiry';

/**
 * The warning before a session ends: 'Stay signed in' has the focus, so one key press extends it; a session
 * at its maximum age says so and when it ends.
 */
export function SessionExpiryDialog() {
  const { notice, busy, staySignedIn, dismiss } = useSessionExpiry();
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
      title={final ? 'Your session cannot be extended' : 'Your session is about to end'}
      onClose={dismiss}
      dismissible={!busy}
      footer={
        final ? (
          <Button ref={primary} onClick={dismiss}>
            OK
          </Button>
        ) : (
          <>
            <Button variant="secondary" onClick={() => void dispatch(logout())} disabled={busy}>
              Sign out
            </Button>
            <Button ref={primary} onClick={() => void staySignedIn()} loading={busy}>
              Stay signed in
            </Button>
          </>
        )
      }
    >
      {final ? (
        <p>
          You have been signed in for the longest time allowed. Your session ends at {endsAt}. Save your work,
          then sign in again.
        </p>
      ) : (
        <p>For your security, you will be signed out at {endsAt} unless you choose to stay signed in.</p>
      )}
      {notice.failed && (
        <p role="alert" className="field__error">
          Could not reach the server. Please try again.
        </p>
      )}
    </Modal>
  );
}
