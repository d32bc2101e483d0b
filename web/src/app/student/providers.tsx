import { useEffect, useState, type ReactNode } from 'react';
import { Provider } from 'react-redux';
import { ToastContainer } from 'react-toastify';
import { showHandedOverToast } from '../../lib/handed-over-toast';
import { TOAST_DURATION_MS, TOAST_LIMIT } from '../../lib/toast';
import { setupStudentStore, type StudentStore } from './store';

export function StudentProviders({ store: given, children }: { store?: StudentStore; children: ReactNode }) {
  const [store] = useState(() => given ?? setupStudentStore());
  useEffect(showHandedOverToast, []);
  return (
    <Provider store={store}>
      {children}
      <ToastContainer position="top-right" autoClose={TOAST_DURATION_MS} limit={TOAST_LIMIT} newestOnTop />
    </Provider>
  );
}
