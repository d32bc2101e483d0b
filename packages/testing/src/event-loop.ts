const held = new Int32Array(new SharedArrayBuffer(4));

/**
 * Holds this process's event loop for `ms`, as one long turn of a saturated service does: no timer, socket event or
 * callback runs meanwhile. It waits (`Atomics.wait`) rather than spins, so the hold costs the proof no CPU.
 */
export function holdTheEventLoop(ms: number): void {
  Atomics.wait(held, 0, 0, ms);
}

/**
 * Keeps this process's event loop as busy as a saturated service's for `forMs`: held `holdMs` at a time, with `gapMs`
 * between the holds in which the timers and sockets that came due run, late.
 */
export async function holdTheEventLoopFor(
  forMs: number,
  { holdMs, gapMs }: { holdMs: number; gapMs: number },
): Promise<void> {
  const until = Date.now() + forMs;
  while (Date.now() < until) {
    holdTheEventLoop(holdMs);
    await new Promise((resolve) => setTimeout(resolve, gapMs));
  }
}
