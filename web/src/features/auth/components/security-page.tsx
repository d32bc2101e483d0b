import { useState } from 'react';
import { useSelector } from 'react-redux';
import { ShieldCheck, ShieldOff } from 'lucide-react';
import { Badge, Button, Card, Spinner } from '../../../components/ui';
import { formatDate } from '../../../lib/format';
import { notify, notifyFailure } from '../../../lib/toast';
import type { TotpEnrolment } from '../api/auth-api';
import {
  useBeginTotpEnrolmentMutation,
  useConfirmTotpEnrolmentMutation,
  useDisableTotpMutation,
  useGetSecuritySettingsQuery,
  useGetSecurityStatusQuery,
  useSetMfaRequiredMutation,
} from '../api/multi-factor-api';
import { selectIsSuperAdmin } from '../auth-slice';
import { AccountSessions } from './account-sessions';
import { PasskeysCard } from './passkeys-card';
import { CodeForm, RecoveryCodes, TotpSetup } from './second-factor';

/**
 * The admin's own security page: their authenticator app, their sessions and, for super admins, the policy for
 * everyone.
 */
export function SecurityPage() {
  const isSuperAdmin = useSelector(selectIsSuperAdmin);
  return (
    <div className="security-page">
      <AuthenticatorCard />
      <Passkeys />
      <AccountSessions />
      {isSuperAdmin && <PolicyCard />}
    </div>
  );
}

function Passkeys() {
  const { data: status } = useGetSecurityStatusQuery();
  return status ? <PasskeysCard status={status} /> : null;
}

function AuthenticatorCard() {
  const { data: status, isLoading, isError } = useGetSecurityStatusQuery();
  const [begin, beginning] = useBeginTotpEnrolmentMutation();
  const [confirm] = useConfirmTotpEnrolmentMutation();
  const [disable] = useDisableTotpMutation();
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [turningOff, setTurningOff] = useState(false);

  const start = async () => {
    try {
      setEnrolment(await begin().unwrap());
    } catch (err) {
      notifyFailure(err, 'Failed to start setting up the authenticator app');
    }
  };

  let body;
  if (isLoading) body = <Spinner label="Loading your security settings" />;
  else if (isError || !status) body = <p>Failed to load your security settings.</p>;
  else if (recoveryCodes) {
    body = (
      <RecoveryCodes
        codes={recoveryCodes}
        doneLabel="Done"
        onDone={() => {
          setRecoveryCodes(null);
          setEnrolment(null);
        }}
      />
    );
  } else if (enrolment) {
    body = (
      <>
        <TotpSetup enrolment={enrolment} />
        <CodeForm
          submitLabel="Verify and turn on"
          failure="Failed to set up the authenticator app"
          onCode={async (code) => {
            setRecoveryCodes(await confirm({ code }).unwrap());
            notify.success('Two-factor authentication is on');
          }}
        />
        <Button variant="ghost" onClick={() => setEnrolment(null)}>
          Cancel
        </Button>
      </>
    );
  } else if (status.totp) {
    body = (
      <>
        <p>
          <Badge tone="success">On</Badge> Since {formatDate(status.totp.enabledAt)}. Each sign-in with your
          password also asks for a code from your authenticator app.
        </p>
        <p>
          {status.recoveryCodesLeft === 1
            ? '1 recovery code left.'
            : `${status.recoveryCodesLeft} recovery codes left.`}
        </p>
        {status.required && status.passkeys.length === 0 ? (
          <p>Two-factor authentication is required for every admin, so it cannot be turned off.</p>
        ) : turningOff ? (
          <>
            <p>Enter a code from your authenticator app to turn two-factor authentication off.</p>
            <CodeForm
              submitLabel="Turn off"
              failure="Failed to turn off two-factor authentication"
              onCode={async (code) => {
                await disable({ code }).unwrap();
                setTurningOff(false);
                notify.success('Two-factor authentication is off');
              }}
            />
            <Button variant="ghost" onClick={() => setTurningOff(false)}>
              Cancel
            </Button>
          </>
        ) : (
          <Button
            variant="secondary"
            icon={<ShieldOff size={16} aria-hidden="true" />}
            onClick={() => setTurningOff(true)}
          >
            Turn off
          </Button>
        )}
      </>
    );
  } else {
    body = (
      <>
        <p>
          <Badge tone="neutral">Off</Badge> Protect your account with a code from an authenticator app on your
          phone, asked for after your password.
        </p>
        <Button
          icon={<ShieldCheck size={16} aria-hidden="true" />}
          loading={beginning.isLoading}
          onClick={start}
        >
          Set up authenticator app
        </Button>
      </>
    );
  }

  return (
    <Card title="Authenticator app">
      <div className="security-page__body">{body}</div>
    </Card>
  );
}

function PolicyCard() {
  const { data: settings } = useGetSecuritySettingsQuery();
  const [setRequired, saving] = useSetMfaRequiredMutation();
  const onChange = async (required: boolean) => {
    try {
      await setRequired(required).unwrap();
      notify.success(
        required
          ? 'Two-factor authentication is now required for every admin'
          : 'Two-factor authentication is no longer required',
      );
    } catch (err) {
      notifyFailure(err, 'Failed to save the security settings');
    }
  };
  return (
    <Card title="Policy for every admin">
      <div className="security-page__body">
        <label className="check">
          <input
            type="checkbox"
            className="check__box"
            checked={settings?.mfaRequired ?? false}
            disabled={!settings || saving.isLoading}
            onChange={(e) => void onChange(e.target.checked)}
          />
          <span>Require two-factor authentication for every admin</span>
        </label>
        <p className="security-page__hint">
          Admins without an authenticator app set one up at their next sign-in, before they reach anything
          else.
        </p>
      </div>
    </Card>
  );
}
