import { useState } from 'react';
import { useSelector } from 'react-redux';
import { ShieldCheck, ShieldOff } from 'lucide-react';
import { Badge, Button, Card, ConfirmDialog, Spinner } from '../../../components/ui';
import { formatDate } from '../../../lib/format';
import { notify, notifyFailure } from '../../../lib/toast';
import type { TotpEnrolment } from '../api/auth-api';
import {
  useBeginTotpEnrolmentMutation,
  useConfirmTotpEnrolmentMutation,
  useDisableTotpMutation,
  useGetSecuritySettingsQuery,
  useGetSecurityStatusQuery,
  useReplaceRecoveryCodesMutation,
  useSetMfaRequiredMutation,
  type SecurityStatus,
} from '../api/multi-factor-api';
import { selectIsSuperAdmin } from '../auth-slice';
import { AccountSessions } from './account-sessions';
import { PasskeysCard } from './passkeys-card';
import { CodeForm, RecoveryCodes, TotpSetup } from './second-factor';
import { StepUpProvider, useWithProof } from './step-up';
import { AdminT, adminT, useAdminT } from '../../../i18n/admin/admin-i18n';

/**
 * The admin's own security page: their authenticator app, passkeys and recovery codes (each change after a fresh
 * proof that it is them), their sessions and, for super admins, the policy for everyone.
 */
export function SecurityPage() {
  const isSuperAdmin = useSelector(selectIsSuperAdmin);
  return (
    <StepUpProvider>
      <div className="security-page">
        <AuthenticatorCard />
        <Passkeys />
        <AccountSessions />
        {isSuperAdmin && <PolicyCard />}
      </div>
    </StepUpProvider>
  );
}

function Passkeys() {
  const { data: status } = useGetSecurityStatusQuery();
  if (!status) return null;
  return (
    <>
      <PasskeysCard status={status} />
      {(status.totp || status.passkeys.length > 0) && <RecoveryCodesCard status={status} />}
    </>
  );
}

/** How many recovery codes are left, and ten new ones in their place. */
function RecoveryCodesCard({ status }: { status: SecurityStatus }) {
  const t = useAdminT();
  const withProof = useWithProof();
  const [replace, replacing] = useReplaceRecoveryCodesMutation();
  const [confirming, setConfirming] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const onConfirm = async () => {
    setConfirming(false);
    try {
      const made = await withProof(() => replace().unwrap());
      if (!made) return;
      setCodes(made);
      notify.success(adminT('auth.recoveryCodes.replaced'));
    } catch (err) {
      notifyFailure(err, adminT('auth.recoveryCodes.replaceFailed'));
    }
  };
  return (
    <Card title={t('auth.recoveryCodes.cardTitle')}>
      <div className="security-page__body">
        {codes ? (
          <RecoveryCodes
            codes={codes}
            doneLabel={t('auth.recoveryCodes.done')}
            onDone={() => setCodes(null)}
          />
        ) : (
          <>
            <p>{t('auth.totp.recoveryCodesLeft', { count: status.recoveryCodesLeft })}</p>
            <Button variant="secondary" loading={replacing.isLoading} onClick={() => setConfirming(true)}>
              {t('auth.recoveryCodes.replace')}
            </Button>
          </>
        )}
      </div>
      <ConfirmDialog
        open={confirming}
        title={t('auth.recoveryCodes.replaceTitle')}
        message={<p>{t('auth.recoveryCodes.replaceConfirm')}</p>}
        confirmLabel={t('auth.recoveryCodes.replace')}
        busy={false}
        onConfirm={() => void onConfirm()}
        onCancel={() => setConfirming(false)}
      />
    </Card>
  );
}

function AuthenticatorCard() {
  const t = useAdminT();
  const { data: status, isLoading, isError } = useGetSecurityStatusQuery();
  const [begin, beginning] = useBeginTotpEnrolmentMutation();
  const [confirm] = useConfirmTotpEnrolmentMutation();
  const [disable] = useDisableTotpMutation();
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [turningOff, setTurningOff] = useState(false);
  const withProof = useWithProof();

  const start = async () => {
    try {
      const started = await withProof(() => begin().unwrap());
      if (started) setEnrolment(started);
    } catch (err) {
      notifyFailure(err, adminT('auth.totp.startFailed'));
    }
  };

  let body;
  if (isLoading) body = <Spinner label={t('auth.security.loading')} />;
  else if (isError || !status) body = <p>{t('auth.security.loadFailed')}</p>;
  else if (recoveryCodes) {
    body = (
      <RecoveryCodes
        codes={recoveryCodes}
        doneLabel={t('auth.recoveryCodes.done')}
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
          submitLabel={t('auth.totp.verifyAndTurnOn')}
          failure={t('auth.totp.setUpFailed')}
          onCode={async (code) => {
            const codes = await withProof(() => confirm({ code }).unwrap());
            if (!codes) return;
            setRecoveryCodes(codes);
            notify.success(adminT('auth.totp.turnedOn'));
          }}
        />
        <Button variant="ghost" onClick={() => setEnrolment(null)}>
          {t('common.cancel')}
        </Button>
      </>
    );
  } else if (status.totp) {
    body = (
      <>
        <p>
          <AdminT
            id={'auth.totp.onSince'}
            values={{ date: formatDate(status.totp.enabledAt) }}
            components={{ 0: <Badge tone="success">{null}</Badge> }}
          />
        </p>
        {status.required && status.passkeys.length === 0 ? (
          <p>{t('auth.totp.required')}</p>
        ) : turningOff ? (
          <>
            <p>{t('auth.totp.turnOffBody')}</p>
            <CodeForm
              submitLabel={t('auth.totp.turnOff')}
              failure={t('auth.totp.turnOffFailed')}
              onCode={async (code) => {
                await disable({ code }).unwrap();
                setTurningOff(false);
                notify.success(adminT('auth.totp.turnedOff'));
              }}
            />
            <Button variant="ghost" onClick={() => setTurningOff(false)}>
              {t('common.cancel')}
            </Button>
          </>
        ) : (
          <Button
            variant="secondary"
            icon={<ShieldOff size={16} aria-hidden="true" />}
            onClick={() => setTurningOff(true)}
          >
            {t('auth.totp.turnOff')}
          </Button>
        )}
      </>
    );
  } else {
    body = (
      <>
        <p>
          <AdminT id={'auth.totp.off'} components={{ 0: <Badge tone="neutral">{null}</Badge> }} />
        </p>
        <Button
          icon={<ShieldCheck size={16} aria-hidden="true" />}
          loading={beginning.isLoading}
          onClick={start}
        >
          {t('auth.totp.setUp')}
        </Button>
      </>
    );
  }

  return (
    <Card title={t('auth.totp.title')}>
      <div className="security-page__body">{body}</div>
    </Card>
  );
}

/** The policy for everyone: switching it on is asked first, as it changes every admin's next sign-in. */
function PolicyCard() {
  const t = useAdminT();
  const { data: settings } = useGetSecuritySettingsQuery();
  const [setRequired, saving] = useSetMfaRequiredMutation();
  const [confirming, setConfirming] = useState(false);
  const save = async (required: boolean) => {
    try {
      await setRequired(required).unwrap();
      notify.success(required ? adminT('auth.policy.requiredOn') : adminT('auth.policy.requiredOff'));
    } catch (err) {
      notifyFailure(err, adminT('auth.policy.saveFailed'));
    } finally {
      setConfirming(false);
    }
  };
  return (
    <Card title={t('auth.policy.title')}>
      <div className="security-page__body">
        <label className="check">
          <input
            type="checkbox"
            className="check__box"
            checked={settings?.mfaRequired ?? false}
            disabled={!settings || saving.isLoading}
            onChange={(e) => (e.target.checked ? setConfirming(true) : void save(false))}
          />
          <span>{t('auth.policy.require')}</span>
        </label>
        <p className="security-page__hint">{t('auth.policy.hint')}</p>
      </div>
      <ConfirmDialog
        open={confirming}
        title={t('auth.policy.confirmTitle')}
        message={
          <>
            <p>{t('auth.policy.confirmBody')}</p>
            <p className="muted">{t('auth.policy.confirmSessions')}</p>
          </>
        }
        confirmLabel={t('auth.policy.confirmSubmit')}
        busy={saving.isLoading}
        onConfirm={() => void save(true)}
        onCancel={() => setConfirming(false)}
      />
    </Card>
  );
}
