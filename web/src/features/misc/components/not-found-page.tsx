import { useAdminT } from '../../../i18n/admin/admin-i18n';
import { NotFoundView } from './not-found-view';

/** The admin app's 404 page. */
export function NotFoundPage() {
  const t = useAdminT();
  return (
    <NotFoundView
      words={{
        title: t('misc.notFound.title'),
        text: t('misc.notFound.text'),
        home: t('misc.notFound.home'),
        back: t('misc.notFound.back'),
      }}
    />
  );
}
