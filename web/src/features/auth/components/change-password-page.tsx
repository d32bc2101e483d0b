import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useSelector } from 'react-redux';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { KeyRound } from 'lucide-react';
import { Button, PasswordInput } from '../../../components/ui';
import { useAppDispatch } from '../../../lib/hooks';
import { failAtField } from '../../../lib/form-errors';
import { bindFields } from '../../../lib/forms';
import { notify } from '../../../lib/toast';
import { useChangePasswordMutation } from '../api/auth-api';
import { changePasswordSchema, type ChangePasswordInput } from '../api/schemas';
import { logout, selectAdmin, startSession } from '../auth-slice';
import { redirectTarget } from '../redirect-target';
import { AuthShell } from './auth-shell';

export function ChangePasswordPage() {
  const admin = useSelector(selectAdmin);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  const [changePassword] = useChangePasswordMutation();
  const forced = admin?.mustChangePassword === true;
  const form = useForm<ChangePasswordInput>({
    resolver: zodResolver(changePasswordSchema),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });
  const { handleSubmit, setError, formState } = form;
  const field = bindFields(form);

  const onSubmit = async ({ currentPassword, newPassword }: ChangePasswordInput) => {
    try {
      const answer = await changePassword({ currentPassword, newPassword }).unwrap();
      dispatch(startSession(answer));
      notify.success('Password changed successfully');
      await navigate(redirectTarget(location.state), { replace: true });
    } catch (err) {
      failAtField(err, 'Failed to change password', {
        setError,
        fields: ['currentPassword', 'newPassword'],
      });
    }
  };

  const signOut = async () => {
    await dispatch(logout());
    await navigate('/admin/login', { replace: true });
  };

  return (
    <AuthShell
      title="Change Password"
      subtitle={
        forced
          ? 'You signed in with a temporary password. Choose a new password to continue.'
          : 'Choose a new password for your account.'
      }
    >
      <form className="form" onSubmit={handleSubmit(onSubmit)} noValidate>
        <PasswordInput
          label={forced ? 'Temporary password' : 'Current password'}
          autoComplete="current-password"
          {...field('currentPassword')}
        />
        <PasswordInput
          label="New password"
          autoComplete="new-password"
          hint="At least 6 characters, and not one of the common passwords."
          {...field('newPassword')}
        />
        <PasswordInput
          label="Confirm new password"
          autoComplete="new-password"
          {...field('confirmPassword')}
        />
        <Button
          type="submit"
          size="lg"
          block
          loading={formState.isSubmitting}
          icon={<KeyRound size={18} aria-hidden="true" />}
        >
          Update Password
        </Button>
        {forced ? (
          <Button variant="ghost" block onClick={signOut}>
            Sign out
          </Button>
        ) : (
          <Link className="auth__link" to="/admin/dashboard">
            Back to dashboard
          </Link>
        )}
      </form>
    </AuthShell>
  );
}
