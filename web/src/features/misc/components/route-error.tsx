import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { adminT } from '../../../i18n/admin/admin-i18n';
import { NotFoundPage } from './not-found-page';

/**
 * Shown when a route fails to render — typically a code chunk that no longer exists after a deploy.
 * Reloading fetches the new build.
 */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  console.error('Route failed:', error);
  return (
    <main className="full-page-center">
      <div className="not-found">
        <h1 className="not-found__title">{adminT('misc.routeError.title')}</h1>
        <p className="muted">{adminT('misc.routeError.body')}</p>
        <div className="not-found__actions">
          <button type="button" className="btn btn--primary btn--md" onClick={() => window.location.reload()}>
            <span>{adminT('misc.routeError.reload')}</span>
          </button>
        </div>
      </div>
    </main>
  );
}
