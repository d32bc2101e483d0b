/**
 * Polls `check` until it neither throws nor returns `false`, and resolves with what it returned. A check
 * may assert (`expect(...)` throws until it holds), answer a boolean, or return the value it waited for.
 * After `timeoutMs` it rejects, naming `what` and the last failure.
 */
export async function eventually<T>(
  check: () => T | Promise<T>,
  what = 'condition',
  timeoutMs = 10_000,
): Promise<Exclude<T, false>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== false) return value as Exclude<T, false>;
      last = undefined;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      const reason = last instanceof Error ? `: ${last.message}` : '';
      throw new Error(`timed out waiting for ${what}${reason}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
