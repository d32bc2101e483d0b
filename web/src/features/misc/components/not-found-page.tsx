import { useNavigate } from 'react-router-dom';
import { ArrowLeft, Compass, Home } from 'lucide-react';
import { Button, ButtonLink } from '../../../components/ui';

export function NotFoundPage() {
  const navigate = useNavigate();
  return (
    <main className="full-page-center">
      <div className="not-found">
        <div className="not-found__icon" aria-hidden="true">
          <Compass size={40} />
        </div>
        <p className="not-found__code">404</p>
        <h1 className="not-found__title">Page Not Found</h1>
        <p className="muted">The page you are looking for does not exist or has been moved.</p>
        <div className="not-found__actions">
          <ButtonLink to="/" icon={<Home size={18} aria-hidden="true" />}>
            Go Home
          </ButtonLink>
          <Button
            variant="secondary"
            icon={<ArrowLeft size={18} aria-hidden="true" />}
            onClick={() => navigate(-1)}
          >
            Go Back
          </Button>
        </div>
      </div>
    </main>
  );
}
