import { useEffect, useState, type ReactNode } from 'react';
import { Provider } from 'react-redux';
import { ToastContainer } from 'react-toastify';
import { LanguageProvider, useLanguage } from '../../i18n/react';
import { showHandedOverToast } from '../../lib/handed-over-toast';
import { TOAST_DURATION_MS, TOAST_LIMIT } from '../../lib/toast';
import { setupStudentStore, type StudentStore } from './store';

export function StudentProviders({ store: given, children }: { store?: StudentStore; children: ReactNode }) {
  const [store] = useState(() => given ?? setupStudentStore());
  useEffect(showHandedOverToast, []);
  return (
    <Provider store={store}>
      <LanguageProvider>
        {children}
        <Toasts />
      </LanguageProvider>
    </Provider>
  );
}

/** Toasts at the top corner where the reading starts: the right in English, the left in Arabic. */
function Toasts() {
  const rtl = useLanguage().direction === 'rtl';
  return (
    <ToastContainer
      position={rtl ? 'top-left' : 'top-right'}
      rtl={rtl}
      autoClose={TOAST_DURATION_MS}
      limit={TOAST_LIMIT}
      newestOnTop
    />
  );
}
