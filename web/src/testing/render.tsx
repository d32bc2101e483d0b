import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { AppProviders } from '../app/providers';
import { routes } from '../app/routes';
import { setupStore, type AppStore, type RootState } from '../app/store';
import { TOKEN_STORAGE_KEY } from '../lib/session-token';

interface Options {
  preloadedState?: Partial<RootState>;
  store?: AppStore;
}

/** Renders any element inside the app's providers (store, toasts) with a fresh or given store. */
export function renderWithProviders(
  ui: ReactElement,
  { preloadedState, store = setupStore(preloadedState) }: Options = {},
) {
  return { store, user: userEvent.setup(), ...render(<AppProviders store={store}>{ui}</AppProviders>) };
}

interface AppOptions extends Options {
  /** A token already in localStorage when the app starts, as after an earlier sign-in. */
  token?: string;
}

/**
 * Starts the whole app (every route, the session check) at a path, as a visitor opening that URL; an entry with a
 * state is a history entry another screen left.
 */
export function renderApp(
  path: string | { pathname: string; state: unknown },
  { token, ...options }: AppOptions = {},
) {
  if (token) window.localStorage.setItem(TOKEN_STORAGE_KEY, token);
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const result = renderWithProviders(<RouterProvider router={router} />, options);
  return { ...result, router };
}
