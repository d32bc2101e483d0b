import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Provider } from 'react-redux';
import { ToastContainer } from 'react-toastify';
import { UiWordsProvider } from '../../components/ui';
import { LanguageProvider, useLanguage, useT } from '../../i18n/react';
import { showHandedOverToast } from '../../lib/handed-over-toast';
import { TOAST_DURATION_MS, TOAST_LIMIT } from '../../lib/toast';
import { setupStudentStore, type StudentStore } from './store';

export function StudentProviders({ store: given, children }: { store?: StudentStore; children: ReactNode }) {
  const [store] = useState(() => given ?? setupStudentStore());
  useEffect(showHandedOverToast, []);
  return (
    <Provider store={store}>
      <LanguageProvider>
        <StudentUiWords>
          {children}
          <Toasts />
        </StudentUiWords>
      </LanguageProvider>
    </Provider>
  );
}

/** The shared components' words in the student's language, following a switch. */
function StudentUiWords({ children }: { children: ReactNode }) {
  const t = useT();
  const words = useMemo(
    () => ({ close: t('dialog.close'), cancel: t('ui.cancel'), loading: t('ui.loading') }),
    [t],
  );
  return <UiWordsProvider words={words}>{children}</UiWordsProvider>;
}

/**
 * Toasts at the top corner where the reading starts: the right in English, the left in Arabic. The newest comes
 * last, so that toasts read top to bottom in the order things happened ('Time is up!', then 'Assessment submitted').
 */
function Toasts() {
  const rtl = useLanguage().direction === 'rtl';
  return (
    <ToastContainer
      position={rtl ? 'top-left' : 'top-right'}
      rtl={rtl}
      autoClose={TOAST_DURATION_MS}
      limit={TOAST_LIMIT}
    />
  );
}
