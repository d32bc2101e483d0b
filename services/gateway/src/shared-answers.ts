import type { ServerResponse } from 'node:http';
import { AppError } from '@readiness/kit/errors';
import type { ProxyTarget } from './proxy';

interface SharedAnswer {
  status: number;
  contentType: string;
  body: Buffer;
}

/** The gateway's headers for an answer (a flat name, value list), its Cache-Control replaced by `value`. */
export function withCacheControl(headers: readonly string[], value: string): string[] {
  const own: string[] = [];
  for (let i = 0; i < headers.length; i += 2) {
    if (headers[i]!.toLowerCase() !== 'cache-control') own.push(headers[i]!, headers[i + 1]!);
  }
  return [...own, 'cache-control', value];
}

/**
 * Answers that are the same for everyone (the waiting room's line), fetched from the upstream at most once per
 * `freshMs` per path and served from memory to every caller meanwhile: thousands of waiting pages asking every few
 * seconds cost one upstream call a second. Callers that arrive while it is fetched share the one fetch. Only a 200
 * is kept; anything else is passed on to the callers of that fetch and asked for again by the next.
 */
export function sharedAnswers(timeoutMs: number) {
  const kept = new Map<string, { at: number; answer: Promise<SharedAnswer> }>();

  async function fetchAnswer(target: ProxyTarget, path: string): Promise<SharedAnswer> {
    let res: Response;
    try {
      res = await fetch(new URL(path, target.baseUrl), { signal: AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      throw new AppError('upstream_unavailable', 'Service temporarily unavailable', 503, { cause: err });
    }
    return {
      status: res.status,
      contentType: res.headers.get('content-type') ?? 'application/json; charset=utf-8',
      body: Buffer.from(await res.arrayBuffer()),
    };
  }

  return {
    /** Writes the shared answer for `path` with the gateway's `headers` (its Cache-Control replaced). */
    async send(
      res: ServerResponse,
      target: ProxyTarget,
      path: string,
      freshMs: number,
      headers: readonly string[],
    ) {
      const now = Date.now();
      let entry = kept.get(path);
      if (!entry || now - entry.at >= freshMs) {
        const answer = fetchAnswer(target, path);
        entry = { at: now, answer };
        kept.set(path, entry);
        answer.then(
          (a) => a.status !== 200 && kept.get(path)?.answer === answer && kept.delete(path),
          () => kept.get(path)?.answer === answer && kept.delete(path),
        );
      }
      const answer = await entry.answer;
      res.writeHead(answer.status, [
        ...withCacheControl(
          headers,
          answer.status === 200 ? `public, max-age=${Math.max(1, Math.round(freshMs / 1000))}` : 'no-store',
        ),
        'content-type',
        answer.contentType,
        'content-length',
        String(answer.body.length),
      ]);
      res.end(answer.body);
    },
  };
}
