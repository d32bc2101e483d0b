/**
 * How long to wait before fetching a failed code chunk again. A chunk is fetched when a screen or a language is first
 * needed, and the network may drop that one request: a phone moving between networks, a laptop changing Wi-Fi, a VPN
 * coming up (Chromium's `net::ERR_NETWORK_CHANGED`). Browsers do not keep a failed module fetch, so a second import a
 * moment later fetches it anew, and usually gets it.
 */
export const CHUNK_RETRY_WAITS_MS = [500, 1_500];

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * `load` (a dynamic import), tried again after each of `waits` when it fails; the last failure is thrown (the route's
 * error screen, with its Reload button, or the language's own fallback).
 */
export function retryingChunk<T>(
  load: () => Promise<T>,
  waits: readonly number[] = CHUNK_RETRY_WAITS_MS,
  sleep: (ms: number) => Promise<void> = wait,
): () => Promise<T> {
  return async () => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await load();
      } catch (err) {
        if (attempt >= waits.length) throw err;
        await sleep(waits[attempt]!);
      }
    }
  };
}
