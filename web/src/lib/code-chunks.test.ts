import { CHUNK_RETRY_WAITS_MS, retryingChunk } from './code-chunks';

/** A chunk whose first `failures` fetches fail as a dropped request does in a browser. */
const flaky = (failures: number) => {
  let calls = 0;
  const load = jest.fn(async () => {
    calls += 1;
    if (calls <= failures)
      throw new TypeError('Failed to fetch dynamically imported module: /assets/login-page.js');
    return { Component: 'LoginPage' };
  });
  return load;
};

describe('a code chunk the network dropped', () => {
  test('when the first fetch fails, then it is fetched again after the first wait and the screen loads', async () => {
    const load = flaky(1);
    const waited: number[] = [];
    const chunk = retryingChunk(load, CHUNK_RETRY_WAITS_MS, async (ms) => void waited.push(ms));
    await expect(chunk()).resolves.toEqual({ Component: 'LoginPage' });
    expect(load).toHaveBeenCalledTimes(2);
    expect(waited).toEqual([500]);
  });

  test('when every fetch fails, then it is tried once after each wait and the last failure reaches the error screen', async () => {
    const load = flaky(10);
    const waited: number[] = [];
    const chunk = retryingChunk(load, CHUNK_RETRY_WAITS_MS, async (ms) => void waited.push(ms));
    await expect(chunk()).rejects.toThrow('Failed to fetch dynamically imported module');
    expect(load).toHaveBeenCalledTimes(3);
    expect(waited).toEqual([500, 1_500]);
  });

  test('when the chunk comes at once, then nothing waits', async () => {
    const load = flaky(0);
    const sleep = jest.fn(async () => undefined);
    await expect(retryingChunk(load, CHUNK_RETRY_WAITS_MS, sleep)()).resolves.toEqual({
      Component: 'LoginPage',
    });
    expect(sleep).not.toHaveBeenCalled();
  });

  test('when a later call comes after a failure, then it fetches again rather than keeping the failure', async () => {
    const load = flaky(3);
    const chunk = retryingChunk(load, CHUNK_RETRY_WAITS_MS, async () => undefined);
    await expect(chunk()).rejects.toThrow();
    await expect(chunk()).resolves.toEqual({ Component: 'LoginPage' });
  });
});
