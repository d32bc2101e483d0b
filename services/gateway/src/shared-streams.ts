import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '@readiness/kit/logger';
import { sendJson, type ProxyTarget } from './proxy';
import { withCacheControl } from './shared-answers';

export interface SharedStreamsOptions {
  logger: Logger;
  /** Each client is told the newest event about this often (its writes spread over the interval). */
  everyMs: number;
  /** On a busy event loop the interval stretches, up to this. */
  longestRoundMs: number;
  /** Clients one gateway holds on all shared streams together; past it a 503 (the page polls instead). */
  maxClients: number;
  /** Of those, the clients of one address; past it a 429 for that address only (its page polls instead). */
  maxPerAddress: number;
}

/** The stream a client asks for, and who asks. */
export interface SharedStreamRequest {
  target: ProxyTarget;
  path: string;
  /** The client's address as the gateway's limits count it (`TRUSTED_PROXIES`). */
  address: string;
  /** The gateway's answer headers (their Cache-Control is replaced). */
  headers: readonly string[];
}

interface Followed {
  target: ProxyTarget;
  /** Client → the slot of the interval in which it is written, and its address. */
  clients: Map<ServerResponse, { slot: number; address: string }>;
  /** The same clients by slot: a pass writes one slot's clients without looking at the others. */
  bySlot: Array<Set<ServerResponse>>;
  /** The newest event with data, as the upstream sent it, and when it came. */
  latest?: Buffer;
  latestAt: number;
  upstream?: AbortController;
  retryMs: number;
}

/**
 * The interval's slots: a client is written in a slot of its own, chosen at random, so the pages told at once are a
 * few picked from the whole line. Pages in a slot by when they came were the pages of neighbouring tickets, so those
 * whose turn had come were told in one turn and pressed Start together: the burst read as warmth at the student
 * service, and the line crept (docs/benchmarks.md, "The line's stream").
 */
const SLOT_MS = 100;
/**
 * Figures older than this are not told again: while the upstream is away the pages hear nothing, and after 10 s of
 * silence they poll, rather than being told the same old figures as if new.
 */
const STALE_MS = 3_000;
const RECONNECT_MAX_MS = 10_000;

/**
 * Event streams that are the same for everyone (the waiting room's line): the gateway follows the upstream's stream
 * once per path and tells each of its clients the newest event at once and then once a round: every `everyMs`, or up
 * to `longestRoundMs` while its event loop is busy. The writes are spread over the round in slots of 100 ms chosen at
 * random. Thousands of waiting pages cost one upstream stream and a write each per round, not a request each every
 * few seconds; the upstream's own events (every second) are never forwarded as they come. At most `maxClients`
 * clients (503 past it) and `maxPerAddress` from one address (429). An upstream that ends or fails is followed again
 * (after 1 s, doubling to 10 s) while anyone listens; meanwhile clients keep their connection, and once the newest
 * figures are 3 s old they hear nothing until the upstream speaks again.
 */
export function sharedStreams(options: SharedStreamsOptions) {
  const { logger } = options;
  const slots = Math.max(1, Math.round(options.everyMs / SLOT_MS));
  const followed = new Map<string, Followed>();
  let clientCount = 0;
  /** Open clients by address; an address with none is not kept. */
  const byAddress = new Map<string, number>();
  /** The next slot to write, the slots owed to the clock (a fraction), and when the last pass came. */
  let nextSlot = 0;
  let owed = 0;
  let lastPassAt: number | undefined;
  let timer: ReturnType<typeof setInterval> | undefined;
  /** A round's longest: below the 10 s of silence after which a page polls, which costs the gateway four writes. */
  const stretchedSlotMs = options.longestRoundMs / slots;

  // One slot a pass while the passes keep time: a round of `everyMs`. When they come late (a busy event loop: the
  // arrivals at the start of a peak), the round stretches, so a busy gateway tells the line less often and leaves its
  // time to the arrivals, but never past `longestRoundMs`: a pass that late writes the slots the clock owes.
  const pass = () => {
    const now = Date.now();
    const elapsed = lastPassAt === undefined ? SLOT_MS : now - lastPassAt;
    lastPassAt = now;
    owed = Math.min(slots, owed + Math.max(1, elapsed / stretchedSlotMs));
    const due = Math.floor(owed);
    owed -= due;
    for (const stream of followed.values()) {
      if (!stream.latest || now - stream.latestAt > STALE_MS) continue;
      for (let i = 0; i < due; i++)
        for (const res of stream.bySlot[(nextSlot + i) % slots]!) res.write(stream.latest);
    }
    nextSlot = (nextSlot + due) % slots;
  };

  async function follow(path: string, stream: Followed) {
    const controller = new AbortController();
    stream.upstream = controller;
    try {
      const res = await fetch(new URL(path, stream.target.baseUrl), {
        headers: { accept: 'text/event-stream' },
        signal: controller.signal,
      });
      if (res.status !== 200 || !res.body) throw new Error(`the upstream answered ${res.status}`);
      stream.retryMs = 1_000;
      const decoder = new TextDecoder();
      let pending = '';
      for await (const chunk of res.body) {
        pending += decoder.decode(chunk as Uint8Array, { stream: true });
        let end: number;
        while ((end = pending.indexOf('\n\n')) !== -1) {
          const block = pending.slice(0, end);
          pending = pending.slice(end + 2);
          // Only events with data are passed on: the upstream's retry field and comments are its own.
          if (!/^data:/m.test(block)) continue;
          const first = !stream.latest;
          stream.latest = Buffer.from(`${block}\n\n`);
          stream.latestAt = Date.now();
          // Those who joined before the first event hear it at once, not at their slot.
          if (first) for (const client of stream.clients.keys()) client.write(stream.latest);
        }
      }
    } catch (err) {
      if (!controller.signal.aborted) logger.warn({ err, path }, 'a shared stream could not be followed');
    } finally {
      if (stream.upstream === controller) stream.upstream = undefined;
    }
    if (controller.signal.aborted || stream.clients.size === 0) return;
    const wait = stream.retryMs;
    stream.retryMs = Math.min(stream.retryMs * 2, RECONNECT_MAX_MS);
    setTimeout(() => {
      if (stream.clients.size > 0 && !stream.upstream) void follow(path, stream);
    }, wait).unref();
  }

  const leave = (path: string, stream: Followed, res: ServerResponse) => {
    const client = stream.clients.get(res);
    if (!client) return;
    const { slot, address } = client;
    stream.clients.delete(res);
    stream.bySlot[slot]!.delete(res);
    clientCount--;
    const held = (byAddress.get(address) ?? 1) - 1;
    if (held > 0) byAddress.set(address, held);
    else byAddress.delete(address);
    if (stream.clients.size === 0) {
      stream.upstream?.abort();
      followed.delete(path);
    }
    if (clientCount === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
      lastPassAt = undefined;
      owed = 0;
    }
  };

  return {
    /** Opens a client's stream on `path`, or refuses it when this gateway or the client's address holds its most. */
    open(req: IncomingMessage, res: ServerResponse, { target, path, address, headers }: SharedStreamRequest) {
      const refuse = (status: number, message: string) =>
        sendJson(res, status, message, 'too_many_streams', [...headers, 'retry-after', '5']);
      if (clientCount >= options.maxClients) {
        refuse(503, 'Too many pages follow the line on this gateway');
        return;
      }
      const held = byAddress.get(address) ?? 0;
      if (held >= options.maxPerAddress) {
        refuse(429, 'Too many pages follow the line from this address');
        return;
      }
      byAddress.set(address, held + 1);
      res.writeHead(200, [
        ...withCacheControl(headers, 'no-store'),
        'content-type',
        'text/event-stream; charset=utf-8',
        'x-accel-buffering',
        'no',
      ]);
      // A gateway that goes away has its pages come back over the next few seconds, not all at once.
      res.write(`retry: ${2_000 + Math.floor(Math.random() * 8_000)}\n\n`);
      let stream = followed.get(path);
      if (!stream) {
        stream = {
          target,
          clients: new Map(),
          bySlot: Array.from({ length: slots }, () => new Set<ServerResponse>()),
          retryMs: 1_000,
          latestAt: 0,
        };
        followed.set(path, stream);
      }
      if (stream.latest && Date.now() - stream.latestAt <= STALE_MS) res.write(stream.latest);
      const slot = Math.floor(Math.random() * slots);
      stream.clients.set(res, { slot, address });
      stream.bySlot[slot]!.add(res);
      clientCount++;
      timer ??= setInterval(pass, SLOT_MS);
      if (!stream.upstream) void follow(path, stream);
      req.socket.setTimeout(0);
      const joined = stream;
      res.on('close', () => leave(path, joined, res));
    },
    /** How many clients follow a shared stream on this gateway. */
    size: () => clientCount,
    /** Ends every client's stream and stops following: the gateway is draining (the pages come back elsewhere). */
    endAll() {
      for (const [path, stream] of [...followed]) {
        for (const res of [...stream.clients.keys()]) {
          leave(path, stream, res);
          res.end();
        }
      }
    },
  };
}
