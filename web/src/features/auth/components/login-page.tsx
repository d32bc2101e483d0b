import { useCallback, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useSelector } from 'react-redux';
import { Navigate, useLocation } from 'react-router-dom';
import { Lock, LogIn, Mail } from 'lucide-react';
import { Button, FullPageSpinner, Input, PasswordInput } from '../../../components/ui';
import { useAppDispatch } from '../../../lib/hooks';
import { bindFields } from '../../../lib/forms';
import { takeInvalidLink } from '../../../lib/handed-over-toast';
import type { SessionEnd } from '../../../lib/session-events';
import { notify } from '../../../lib/toast';
import type { SecondFactorStep as Step } from '../api/auth-api';
import { loginSchema, type LoginInput } from '../api/schemas';
import { login, selectSessionEnd, selectSessionStatus } from '../auth-slice';
import { redirectTarget } from '../redirect-target';
import { AuthShell } from './auth-shell';
import { SingleSignOn, useSingleSignOnReturn } from './single-sign-on';
import { PasskeySignIn } from './passkey-sign-in';
import { SecondFactorStep } from './second-factor-step';
import { adminT, useAdminT } from '../../../i18n/admin/admin-i18n';

/** What the login page says about why the last session ended. */
const SESSION_END_NOTES = {
  endedElsewhere: 'auth.login.sessionEnded',
  signedOutEverywhere: 'auth.login.signedOutEverywhere',
  maxAge: 'auth.login.sessionMaxAge',
  signInMethodOff: 'auth.login.signInMethodOff',
} as const satisfies Record<SessionEnd, string>;

export function LoginPage() {
  const t = useAdminT();
  const dispatch = useAppDispatch();
  const location = useLocation();
  const status = useSelector(selectSessionStatus);
  const ended = useSelector(selectSessionEnd);
  // Kept for as long as this page stays open: a student who followed a dead link reads why they are here.
  const [fromInvalidLink] = useState(takeInvalidLink);
  const singleSignOn = useSingleSignOnReturn();
  // The right password of an admin with a second factor: the code comes next, on this page.
  const [secondFactor, setSecondFactor] = useState<Step | null>(null);
  const restart = useCallback(() => setSecondFactor(null), []);
  const form = useForm<LoginInput>({
    resolver: zodResolver(loginSchema),
    defaultValues: { email: '', password: '' },
  });
  const { isSubmitting } = form.formState;
  const field = bindFields(form);

  // A signed-in admin has nothing to do here; this also carries a fresh sign-in on to its page.
  if (status === 'signedIn') {
    const target =
      singleSignOn.state === 'signed-in' ? singleSignOn.returnTo : redirectTarget(location.state);
    return <Navigate to={target} replace />;
  }
  if (status === 'loading') return <FullPageSpinner label={t('auth.session.checking')} />;
  if (singleSignOn.state === 'signing-in') return <FullPageSpinner label={t('auth.login.signingYouIn')} />;

  const onSubmit = async (values: LoginInput) => {
    try {
      const outcome = await dispatch(login(values));
      if (outcome.success) notify.success(adminT('auth.login.welcome', { name: outcome.admin.name }));
      else if ('secondFactor' in outcome) setSecondFactor(outcome.secondFactor);
      else notify.error(outcome.error);
    } catch {
      notify.error(adminT('auth.login.unexpected'));
    }
  };

  if (secondFactor) {
    return (
      <AuthShell title={t('auth.login.title')} subtitle={t('auth.login.subtitle')}>
        <SecondFactorStep step={secondFactor} onRestart={restart} />
      </AuthShell>
    );
  }

  return (
    <AuthShell title={t('auth.login.title')} subtitle={t('auth.login.subtitle')}>
      {fromInvalidLink && (
        <div className="auth-note" role="note" aria-labelledby="student-link-note">
          <p id="student-link-note" className="auth-note__title">
            {t('auth.login.studentNote.title')}
          </p>
          <p>{t('auth.login.studentNote.body')}</p>
        </div>
      )}
      {ended && (
        <div className="auth-note" role="status">
          <p>{t(SESSION_END_NOTES[ended])}</p>
        </div>
      )}
      <SingleSignOn outcome={singleSignOn} returnTo={redirectTarget(location.state)} />
      <form className="form" onSubmit={form.handleSubmit(onSubmit)} noValidate>
        <Input
          label={t('common.field.email')}
          type="email"
          autoComplete="username"
          placeholder={t('auth.login.emailPlaceholder')}
          leadingIcon={<Mail size={18} />}
          {...field('email')}
        />
        <PasswordInput
          label={t('common.field.password')}
          showLabel={t('common.showPassword')}
          hideLabel={t('common.hidePassword')}
          autoComplete="current-password"
          placeholder={t('auth.login.passwordPlaceholder')}
          leadingIcon={<Lock size={18} />}
          {...field('password')}
        />
        <Button
          type="submit"
          size="lg"
          block
          loading={isSubmitting}
          icon={<LogIn size={18} aria-hidden="true" />}
        >
          {isSubmitting ? t('auth.login.submitting') : t('auth.login.submit')}
        </Button>
      </form>
      <PasskeySignIn />
    </AuthShell>
  );
}
