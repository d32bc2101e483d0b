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
import { adminT, useAdminT } from '../../../i18n/admin/admin-i18n';

export function ChangePasswordPage() {
  const t = useAdminT();
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
      notify.success(adminT('auth.changePassword.success'));
      await navigate(redirectTarget(location.state), { replace: true });
    } catch (err) {
      failAtField(err, adminT('auth.changePassword.failure'), {
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
      title={t('auth.changePassword.title')}
      subtitle={forced ? t('auth.changePassword.subtitleForced') : t('auth.changePassword.subtitle')}
    >
      <form className="form" onSubmit={handleSubmit(onSubmit)} noValidate>
        <PasswordInput
          label={forced ? t('auth.changePassword.temporary') : t('auth.changePassword.current')}
          showLabel={t('common.showPassword')}
          hideLabel={t('common.hidePassword')}
          autoComplete="current-password"
          {...field('currentPassword')}
        />
        <PasswordInput
          label={t('auth.changePassword.new')}
          showLabel={t('common.showPassword')}
          hideLabel={t('common.hidePassword')}
          autoComplete="new-password"
          hint={t('auth.changePassword.newHint')}
          {...field('newPassword')}
        />
        <PasswordInput
          label={t('auth.changePassword.confirm')}
          showLabel={t('common.showPassword')}
          hideLabel={t('common.hidePassword')}
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
          {t('auth.changePassword.submit')}
        </Button>
        {forced ? (
          <Button variant="ghost" block onClick={signOut}>
            {t('auth.signOut')}
          </Button>
        ) : (
          <Link className="auth__link" to="/admin/dashboard">
            {t('auth.changePassword.back')}
          </Link>
        )}
      </form>
    </AuthShell>
  );
}
