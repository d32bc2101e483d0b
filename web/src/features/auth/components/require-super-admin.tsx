import { useSelector } from 'react-redux';
import { Navigate, Outlet } from 'react-router-dom';
import { selectIsSuperAdmin } from '../auth-slice';

/** Super-admin-only screens send any other admin to the dashboard (SPEC §6). */
export function RequireSuperAdmin() {
  const isSuperAdmin = useSelector(selectIsSuperAdmin);
  if (!isSuperAdmin) return <Navigate to="/admin/dashboard" replace />;
  return <Outlet />;
}
