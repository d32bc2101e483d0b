import { useSelector } from 'react-redux';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { FullPageSpinner } from '../../../components/ui';
import { selectAdmin, selectSessionStatus } from '../auth-slice';
import { useAdminT } from '../../../i18n/admin/admin-i18n';

export const CHANGE_PASSWORD_PATH = '/admin/change-password';

/**
 * Guards every admin screen but login (SPEC §2): a centred spinner while the session check runs,
 * a history-replacing redirect to login that remembers the page asked for, and — after sign-in with
 * a temporary password — the change-password screen until a new password is set.
 */
export function RequireAuth() {
  const status = useSelector(selectSessionStatus);
  const admin = useSelector(selectAdmin);
  const location = useLocation();
  const t = useAdminT();

  if (status === 'loading') return <FullPageSpinner label={t('auth.session.checking')} />;
  if (status === 'signedOut' || !admin)
    return <Navigate to="/admin/login" replace state={{ from: location }} />;
  if (admin.mustChangePassword && location.pathname !== CHANGE_PASSWORD_PATH) {
    return <Navigate to={CHANGE_PASSWORD_PATH} replace state={{ from: location }} />;
  }
  return <Outlet />;
}
