import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { Spinner } from '../../../components/ui';
import { useAdminT } from '../../../i18n/admin/admin-i18n';

/** `/`: the product has no public home page; visitors are sent to the admin sign-in. */
export function RootRedirect() {
  const navigate = useNavigate();
  const t = useAdminT();
  useEffect(() => {
    void navigate('/admin/login', { replace: true });
  }, [navigate]);
  return (
    <div className="full-page-center full-page-center--column">
      <Spinner label={t('misc.redirect.label')} />
      <p className="muted">{t('misc.redirect.body')}</p>
    </div>
  );
}
