import { useState } from 'react';
import { KeyRound } from 'lucide-react';
import { Button } from '../../../components/ui';
import { useAppDispatch } from '../../../lib/hooks';
import { notify, notifyFailure } from '../../../lib/toast';
import { usePasskeySignInOptionsMutation, useSignInWithPasskeyMutation } from '../api/auth-api';
import { finishSignIn } from '../auth-slice';
import { answerWithPasskey, passkeysSupported, PasskeyUnavailable } from '../passkeys';
import { adminT, useAdminT } from '../../../i18n/admin/admin-i18n';

/** Sign-in with a passkey alone: the device verifies the person, no password is typed. */
export function PasskeySignIn() {
  const t = useAdminT();
  const dispatch = useAppDispatch();
  const [getOptions] = usePasskeySignInOptionsMutation();
  const [signIn] = useSignInWithPasskeyMutation();
  const [busy, setBusy] = useState(false);
  if (!passkeysSupported()) return null;

  const onClick = async () => {
    setBusy(true);
    try {
      const answer = await answerWithPasskey(await getOptions().unwrap());
      const session = await signIn({ passkey: answer }).unwrap();
      dispatch(finishSignIn(session));
      notify.success(adminT('auth.login.welcome', { name: session.admin.name }));
    } catch (err) {
      if (err instanceof PasskeyUnavailable) notify.error(err.message);
      else notifyFailure(err, adminT('auth.passkeySignIn.failure'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="passkey-sign-in">
      <p className="auth__divider">{t('auth.passkeySignIn.or')}</p>
      <Button
        variant="secondary"
        size="lg"
        block
        loading={busy}
        icon={<KeyRound size={18} aria-hidden="true" />}
        onClick={() => void onClick()}
      >
        {t('auth.passkeySignIn.submit')}
      </Button>
    </div>
  );
}
