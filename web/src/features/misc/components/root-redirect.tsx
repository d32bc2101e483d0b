import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { Spinner } from '../../../components/ui';

/** `/`: the product has no public home page; visitors are sent to the admin sign-in. */
export function RootRedirect() {
  const navigate = useNavigate();
  useEffect(() => {
    void navigate('/admin/login', { replace: true });
  }, [navigate]);
  return (
    <div className="full-page-center full-page-center--column">
      <Spinner label="Redirecting" />
      <p className="muted">Redirecting to admin portal...</p>
    </div>
  );
}
