import { useEffect } from 'react';
import { useBlocker } from 'react-router-dom';
import { ConfirmDialog } from '../../../components/ui';
import { useAdminT } from '../../../i18n/admin/admin-i18n';

/**
 * Keeps unsaved edits from being lost by accident: a move to another page through the app asks first (and, when
 * the admin leaves, `onLeave` lets go of what the edit alone held), and so does the browser before a reload or
 * closing the tab.
 */
export function UnsavedChangesGuard({ when, onLeave }: { when: boolean; onLeave?: () => void }) {
  const t = useAdminT();
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => when && currentLocation.pathname !== nextLocation.pathname,
  );

  useEffect(() => {
    if (!when) return undefined;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [when]);

  return (
    <ConfirmDialog
      open={blocker.state === 'blocked'}
      title={t('assessments.leave.title')}
      message={<p>{t('assessments.leave.message')}</p>}
      confirmLabel={t('assessments.leave.confirm')}
      cancelLabel={t('assessments.leave.stay')}
      tone="danger"
      onConfirm={() => {
        onLeave?.();
        blocker.proceed?.();
      }}
      onCancel={() => blocker.reset?.()}
    />
  );
}
