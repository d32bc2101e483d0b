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
import { notify } from '../../../lib/toast';
import type { SecondFactorStep as Step } from '../api/auth-api';
import { loginSchema, type LoginInput } from '../api/schemas';
import { login, selectSessionStatus } from '../auth-slice';
import { redirectTarget } from '../redirect-target';
import { AuthShell } from './auth-shell';
import { SingleSignOn, useSingleSignOnReturn } from './single-sign-on';
import { PasskeySignIn } from './passkey-sign-in';
import { SecondFactorStep } from './second-factor-step';

export function LoginPage() {
  const dispatch = useAppDispatch();
  const location = useLocation();
  const status = useSelector(selectSessionStatus);
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
  if (status === 'loading') return <FullPageSpinner label="Checking your session" />;
  if (singleSignOn.state === 'signing-in') return <FullPageSpinner label="Signing you in" />;

  const onSubmit = async (values: LoginInput) => {
    try {
      const outcome = await dispatch(login(values));
      if (outcome.success) notify.success(`Welcome back, ${outcome.admin.name}!`);
      else if ('secondFactor' in outcome) setSecondFactor(outcome.secondFactor);
      else notify.error(outcome.error);
    } catch {
      notify.error('An unexpected error occurred');
    }
  };

  if (secondFactor) {
    return (
      <AuthShell title="Admin Portal" subtitle="Sign in to manage students, assessments and results.">
        <SecondFactorStep step={secondFactor} onRestart={restart} />
      </AuthShell>
    );
  }

  return (
    <AuthShell title="Admin Portal" subtitle="Sign in to manage students, assessments and results.">
      {fromInvalidLink && (
        <div className="auth-note" role="note" aria-labelledby="student-link-note">
          <p id="student-link-note" className="auth-note__title">
            Looking for your assessment?
          </p>
          <p>
            The invitation link you opened is invalid or has expired. This sign-in is for administrators: ask
            whoever sent you the invitation for a new link.
          </p>
        </div>
      )}
      <SingleSignOn outcome={singleSignOn} returnTo={redirectTarget(location.state)} />
      <form className="form" onSubmit={form.handleSubmit(onSubmit)} noValidate>
        <Input
          label="Email"
          type="email"
          autoComplete="username"
          placeholder="you@institution.edu"
          leadingIcon={<Mail size={18} />}
          {...field('email')}
        />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          placeholder="Enter your password"
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
          {isSubmitting ? 'Signing in...' : 'Sign In'}
        </Button>
      </form>
      <PasskeySignIn />
    </AuthShell>
  );
}
