import { useEffect, useState, type ReactNode } from 'react';
import { Provider } from 'react-redux';
import { ToastContainer } from 'react-toastify';
import { restoreSession } from '../features/auth/auth-slice';
import { SessionExpiryDialog } from '../features/auth/components/session-expiry-dialog';
import { useIdleSessionRenewal } from '../features/auth/session-renewal';
import { UiWordsProvider, type UiWords } from '../components/ui';
import { AdminLanguageProvider, adminT } from '../i18n/admin/admin-i18n';
import { showHandedOverToast } from '../lib/handed-over-toast';
import { TOAST_DURATION_MS, TOAST_LIMIT } from '../lib/toast';
import { setupStore, type AppStore } from './store';

/**
 * Starts the session check once per store: loading → signed in or signed out (SPEC §4); then keeps a
 * signed-in session renewed while the tab sits idle.
 */
function SessionBootstrap({ store }: { store: AppStore }) {
  useEffect(() => {
    if (store.getState().auth.status === 'loading') void store.dispatch(restoreSession());
  }, [store]);
  useIdleSessionRenewal();
  return null;
}

/** The shared components' words in the admin app, from its catalogue. */
let words: UiWords | undefined;
const adminWords = () =>
  (words ??= {
    close: adminT('common.close'),
    cancel: adminT('common.cancel'),
    loading: adminT('common.loading'),
  });

export function AppProviders({ store: given, children }: { store?: AppStore; children: ReactNode }) {
  const [store] = useState(() => given ?? setupStore());
  // A student sent here from an invalid invitation link sees why (SPEC §4).
  useEffect(showHandedOverToast, []);
  return (
    <AdminLanguageProvider>
      <UiWordsProvider words={adminWords()}>
        <Provider store={store}>
          <SessionBootstrap store={store} />
          <SessionExpiryDialog />
          {children}
          <ToastContainer
            position="top-right"
            autoClose={TOAST_DURATION_MS}
            limit={TOAST_LIMIT}
            newestOnTop
          />
        </Provider>
      </UiWordsProvider>
    </AdminLanguageProvider>
  );
}
