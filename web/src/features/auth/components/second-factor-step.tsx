import { useEffect, useState } from 'react';
import { KeyRound } from 'lucide-react';
import { Button, Spinner } from '../../../components/ui';
import { errorCode, serverMessage } from '../../../lib/errors';
import { useAppDispatch } from '../../../lib/hooks';
import { notify, notifyFailure } from '../../../lib/toast';
import {
  useBeginSignInEnrolmentMutation,
  useCompleteSecondFactorMutation,
  useSecondFactorPasskeyOptionsMutation,
  type SecondFactorProof,
  type SecondFactorSession,
  type SecondFactorStep as Step,
  type TotpEnrolment,
} from '../api/auth-api';
import { finishSignIn } from '../auth-slice';
import { answerWithPasskey, passkeysSupported, PasskeyUnavailable } from '../passkeys';
import { CodeForm, RecoveryCodeForm, RecoveryCodes, TotpSetup } from './second-factor';
import { adminT, useAdminT } from '../../../i18n/admin/admin-i18n';

type Mode = 'passkey' | 'code' | 'recovery';

/**
 * The second step of password sign-in: a code from the authenticator app or a recovery code. An admin whom the
 * policy requires to have a second factor, and who has none, sets up the app here first and sees their recovery
 * codes before the session starts.
 */
export function SecondFactorStep({ step, onRestart }: { step: Step; onRestart: () => void }) {
  const t = useAdminT();
  const dispatch = useAppDispatch();
  const [complete] = useCompleteSecondFactorMutation();
  const [beginEnrolment, enrolmentRequest] = useBeginSignInEnrolmentMutation();
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const hasPasskey = step.methods.includes('passkey') && passkeysSupported();
  const hasApp = step.methods.includes('totp');
  const [mode, setMode] = useState<Mode>(hasPasskey ? 'passkey' : hasApp ? 'code' : 'recovery');
  const [passkeyOptions] = useSecondFactorPasskeyOptionsMutation();
  const [askingPasskey, setAskingPasskey] = useState(false);
  const [enrolled, setEnrolled] = useState<SecondFactorSession | null>(null);

  useEffect(() => {
    if (!step.enrol) return;
    beginEnrolment({ challenge: step.challenge })
      .unwrap()
      .then(setEnrolment)
      .catch((err: unknown) => {
        notifyFailure(err, adminT('auth.secondFactor.enrolFailed'));
        onRestart();
      });
  }, [step, beginEnrolment, onRestart]);

  const verify = async (proof: SecondFactorProof) => {
    let answer: SecondFactorSession;
    try {
      answer = await complete({ challenge: step.challenge, ...proof }).unwrap();
    } catch (err) {
      // Five minutes after the password: nothing left to verify against, so the password is asked again.
      if (errorCode(err) === 'mfa_challenge_expired') {
        notify.error(serverMessage(err) ?? adminT('auth.secondFactor.expired'));
        onRestart();
        return;
      }
      throw err;
    }
    if (answer.recoveryCodes) {
      setEnrolled(answer);
      return;
    }
    dispatch(finishSignIn(answer));
    notify.success(adminT('auth.login.welcome', { name: answer.admin.name }));
  };

  if (enrolled?.recoveryCodes) {
    return (
      <RecoveryCodes
        codes={enrolled.recoveryCodes}
        doneLabel={t('auth.secondFactor.continue')}
        onDone={() => {
          dispatch(finishSignIn(enrolled));
          notify.success(adminT('auth.login.welcome', { name: enrolled.admin.name }));
        }}
      />
    );
  }

  const verifyWithPasskey = async () => {
    setAskingPasskey(true);
    try {
      const answer = await answerWithPasskey(await passkeyOptions({ challenge: step.challenge }).unwrap());
      await verify({ passkey: answer });
    } catch (err) {
      if (err instanceof PasskeyUnavailable) notify.error(err.message);
      else notifyFailure(err, adminT('auth.secondFactor.verificationFailed'));
    } finally {
      setAskingPasskey(false);
    }
  };

  const switchTo = (to: Mode, label: string) => (
    <Button key={to} variant="ghost" block onClick={() => setMode(to)}>
      {label}
    </Button>
  );
  const otherWays = [
    mode !== 'passkey' && hasPasskey && switchTo('passkey', t('auth.secondFactor.usePasskey')),
    mode !== 'code' && hasApp && switchTo('code', t('auth.secondFactor.useApp')),
    mode !== 'recovery' && switchTo('recovery', t('auth.secondFactor.useRecoveryCode')),
  ];

  const back = (
    <Button variant="ghost" block onClick={onRestart}>
      {t('auth.secondFactor.back')}
    </Button>
  );

  if (step.enrol) {
    return (
      <section className="second-factor" aria-labelledby="second-factor-title">
        <h2 id="second-factor-title" className="second-factor__title">
          {t('auth.secondFactor.enrolTitle')}
        </h2>
        <p>{t('auth.secondFactor.enrolBody')}</p>
        {enrolment ? (
          <>
            <TotpSetup enrolment={enrolment} />
            <CodeForm
              submitLabel={t('auth.secondFactor.verifyAndContinue')}
              failure={t('auth.secondFactor.verificationFailed')}
              onCode={(code) => verify({ code })}
            />
          </>
        ) : (
          enrolmentRequest.isLoading && <Spinner label={t('auth.secondFactor.preparingKey')} />
        )}
        {back}
      </section>
    );
  }

  return (
    <section className="second-factor" aria-labelledby="second-factor-title">
      <h2 id="second-factor-title" className="second-factor__title">
        {t('auth.secondFactor.title')}
      </h2>
      {mode === 'passkey' && (
        <>
          <p>{t('auth.secondFactor.passkeyBody')}</p>
          <Button
            size="lg"
            block
            autoFocus
            loading={askingPasskey}
            icon={<KeyRound size={18} aria-hidden="true" />}
            onClick={() => void verifyWithPasskey()}
          >
            {t('auth.secondFactor.passkeySubmit')}
          </Button>
        </>
      )}
      {mode === 'code' && (
        <>
          <p>{t('auth.secondFactor.codeBody')}</p>
          <CodeForm
            submitLabel={t('auth.secondFactor.verify')}
            failure={t('auth.secondFactor.verificationFailed')}
            onCode={(code) => verify({ code })}
          />
        </>
      )}
      {mode === 'recovery' && (
        <>
          <p>{t('auth.secondFactor.recoveryBody')}</p>
          <RecoveryCodeForm onRecoveryCode={(recoveryCode) => verify({ recoveryCode })} />
        </>
      )}
      {otherWays}
      {back}
    </section>
  );
}
