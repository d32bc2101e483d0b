import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation, type Location } from 'react-router-dom';
import { StudentProviders } from '../app/student/providers';
import { StudentRoutes } from '../app/student/routes';
import { setupStudentStore, type StudentStore } from '../app/student/store';

interface StudentAppOptions {
  store?: StudentStore;
  /** Navigation state the page opens with, as after the test screen hands over a result. */
  state?: unknown;
}

/** Where the student pages are, for tests that follow their navigation. */
export const where: { location?: Location } = {};

function LocationProbe() {
  where.location = useLocation();
  return null;
}

/**
 * Starts the student entry (its own store, providers and routes; no admin code) at a path, as a
 * student opening their invitation link.
 */
export function renderStudentApp(
  path: string,
  { store = setupStudentStore(), state }: StudentAppOptions = {},
) {
  const user = userEvent.setup();
  const result = render(
    <StudentProviders store={store}>
      <MemoryRouter initialEntries={[{ pathname: path, state }]}>
        <StudentRoutes />
        <LocationProbe />
      </MemoryRouter>
    </StudentProviders>,
  );
  return { ...result, store, user };
}
