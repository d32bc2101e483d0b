import { forwardRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Copy, Download, ShieldCheck } from 'lucide-react';
import { Button, Input, type InputProps } from '../../../components/ui';
import { failAtField } from '../../../lib/form-errors';
import { bindFields } from '../../../lib/forms';
import { saveBlob } from '../../../lib/save-file';
import { notify } from '../../../lib/toast';
import type { TotpEnrolment } from '../api/auth-api';
import {
  CODE_MESSAGE,
  codeSchema,
  recoveryCodeSchema,
  type CodeInput,
  type RecoveryCodeInput,
} from '../api/schemas';
import { adminT, useAdminT } from '../../../i18n/admin/admin-i18n';

/** The field of an authenticator app's six-digit code: at sign-in, at set-up and when confirming it is you. */
export const AuthenticatorCodeInput = forwardRef<HTMLInputElement, Omit<InputProps, 'label'>>(
  function AuthenticatorCodeInput(props, ref) {
    const t = useAdminT();
    return (
      <Input
        ref={ref}
        label={t('auth.secondFactor.codeLabel')}
        hint={CODE_MESSAGE}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        autoFocus
        {...props}
      />
    );
  },
);

/** The key in groups of four, easier to type into an app that cannot scan. */
const groupedKey = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

/** An authenticator app's new key: as a QR code to scan and written out to type. */
export function TotpSetup({ enrolment }: { enrolment: TotpEnrolment }) {
  const t = useAdminT();
  return (
    <div className="totp-setup">
      <p>{t('auth.totp.scan')}</p>
      <img
        className="totp-setup__qr"
        src={enrolment.qrCode}
        width={200}
        height={200}
        alt={t('auth.totp.qrAlt')}
      />
      <p className="totp-setup__key-label" id="totp-key-label">
        {t('auth.totp.keyLabel')}
      </p>
      <code className="totp-setup__key" aria-labelledby="totp-key-label">
        {groupedKey(enrolment.secret)}
      </code>
    </div>
  );
}

/** A form for one 6-digit code; a refusal from the server shows at the field. */
export function CodeForm({
  submitLabel,
  onCode,
  failure,
}: {
  submitLabel: string;
  onCode: (code: string) => Promise<void>;
  failure: string;
}) {
  const form = useForm<CodeInput>({ resolver: zodResolver(codeSchema), defaultValues: { code: '' } });
  const field = bindFields(form);
  const onSubmit = async ({ code }: CodeInput) => {
    try {
      await onCode(code);
    } catch (err) {
      failAtField(err, failure, { setError: form.setError, fields: ['code'] });
    }
  };
  return (
    <form className="form" onSubmit={form.handleSubmit(onSubmit)} noValidate>
      <AuthenticatorCodeInput {...field('code')} />
      <VerifyButton busy={form.formState.isSubmitting}>{submitLabel}</VerifyButton>
    </form>
  );
}

function VerifyButton({ busy, children }: { busy: boolean; children: string }) {
  return (
    <Button type="submit" size="lg" block loading={busy} icon={<ShieldCheck size={18} aria-hidden="true" />}>
      {children}
    </Button>
  );
}

/** A form for one recovery code. */
export function RecoveryCodeForm({
  onRecoveryCode,
}: {
  onRecoveryCode: (recoveryCode: string) => Promise<void>;
}) {
  const t = useAdminT();
  const form = useForm<RecoveryCodeInput>({
    resolver: zodResolver(recoveryCodeSchema),
    defaultValues: { recoveryCode: '' },
  });
  const field = bindFields(form);
  const onSubmit = async ({ recoveryCode }: RecoveryCodeInput) => {
    try {
      await onRecoveryCode(recoveryCode);
    } catch (err) {
      failAtField(err, adminT('auth.secondFactor.verificationFailed'), {
        setError: form.setError,
        fields: ['recoveryCode'],
      });
    }
  };
  return (
    <form className="form" onSubmit={form.handleSubmit(onSubmit)} noValidate>
      <Input
        label={t('auth.secondFactor.recoveryCodeLabel')}
        hint={t('auth.secondFactor.recoveryCodeHint')}
        autoComplete="off"
        spellCheck={false}
        autoFocus
        {...field('recoveryCode')}
      />
      <VerifyButton busy={form.formState.isSubmitting}>{t('auth.secondFactor.verify')}</VerifyButton>
    </form>
  );
}

/** The recovery codes as a text file to keep: what they are, for which site, then one code a line. */
function downloadRecoveryCodes(codes: string[]): void {
  const heading = adminT('auth.recoveryCodes.fileHeading', { site: window.location.host });
  const text = `${heading}\n\n${codes.join('\n')}\n`;
  saveBlob(new Blob([text], { type: 'text/plain;charset=utf-8' }), 'readiness-recovery-codes.txt');
}

/** The recovery codes, shown once, with ways to copy and download them; `onDone` when the admin has saved them. */
export function RecoveryCodes({
  codes,
  doneLabel,
  onDone,
}: {
  codes: string[];
  doneLabel: string;
  onDone: () => void;
}) {
  const t = useAdminT();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      setCopied(true);
      notify.success(adminT('auth.recoveryCodes.copiedToast'));
    } catch {
      notify.error(adminT('auth.recoveryCodes.copyFailed'));
    }
  };
  return (
    <section className="recovery-codes" aria-labelledby="recovery-codes-title">
      <h2 id="recovery-codes-title" className="recovery-codes__title">
        {t('auth.recoveryCodes.title')}
      </h2>
      <p>{t('auth.recoveryCodes.body')}</p>
      <ol className="recovery-codes__list">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="recovery-codes__actions">
        <Button variant="secondary" icon={<Copy size={16} aria-hidden="true" />} onClick={copy}>
          {copied ? t('auth.recoveryCodes.copied') : t('auth.recoveryCodes.copy')}
        </Button>
        <Button
          variant="secondary"
          icon={<Download size={16} aria-hidden="true" />}
          onClick={() => downloadRecoveryCodes(codes)}
        >
          {t('auth.recoveryCodes.download')}
        </Button>
        <Button onClick={onDone}>{doneLabel}</Button>
      </div>
    </section>
  );
}
