import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';
import { resetDb, server } from './server';

// The first render of a route compiles its lazily loaded modules; on two cores shared with the services' tests (the
// component lane runs three files at once) that alone can pass the default second, so `findBy…` waits longer before
// calling a screen missing. A screen that shows at once is found at once: the wait costs only a missing one.
configure({ asyncUtilTimeout: 15_000 });
// A screen test types, clicks and waits through several such screens; under the same load one has taken over the
// repository's 30 s a test may run, so the screens' tests get a minute (a stuck one still fails, with its screen).
jest.setTimeout(60_000);

// jsdom lays nothing out, so it cannot scroll, and says so on the console each time a page opens at its top: a
// scroll is nothing there (a test that cares spies on it).
if (typeof window !== 'undefined') window.scrollTo = () => undefined;

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => resetDb());
afterEach(() => {
  server.resetHandlers();
  if (typeof window !== 'undefined') window.localStorage.clear();
});
afterAll(() => server.close());
