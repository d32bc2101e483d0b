import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { studentApi } from '../../features/student-flow/api/student-api';

/*
 * The student pages' own store (STYLE §12): their API slice and nothing of the admin's — no session,
 * no admin endpoints — so opening an invitation link never loads or runs admin code.
 */
const rootReducer = combineReducers({ [studentApi.reducerPath]: studentApi.reducer });

export type StudentRootState = ReturnType<typeof rootReducer>;

export function setupStudentStore(preloadedState?: Partial<StudentRootState>) {
  const store = configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefault) => getDefault().concat(studentApi.middleware),
  });
  setupListeners(store.dispatch);
  return store;
}

export type StudentStore = ReturnType<typeof setupStudentStore>;
