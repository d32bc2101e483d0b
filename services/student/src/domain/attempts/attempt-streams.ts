import ipaddr from 'ipaddr.js';
import type { Database } from '@readiness/kit/db';
import { AppError } from '@readiness/kit/errors';
import type { Logger } from '@readiness/kit/logger';
import { attemptClocks, pageOpened, type AttemptClock } from '../../data-access/live-repository';
import { tokenHash } from '../tokens';
import { usable } from './invitation-link';

/** What a student's page is told about its attempt: at once, then whenever the deadline or the status changes. */
export interface AttemptMessage {
  attemptId: string;
  deadlineAt: string;
  status: 'in_progress' | 'closed';
  serverNow: string;
  addedMinutes: number;
}

export interface AttemptSink {
  send(message: AttemptMessage): void;
  ping(): void;
  /**
   * Ends the stream: the attempt is over (after its `closed` message, which makes the page close its EventSource),
   * the student was erased, or the service is stopping (the page's EventSource reconnects to another replica).
   */
  end(): void;
}

/** Who opens a stream: its link and the client address (`req.ip`, as the trusted proxies report it). */
export interface StreamOpener {
  token: string;
  address: string;
}

interface Options {
  database: Database;
  logger: Logger;
  /** How often the attempts this replica streams to are read again (one statement for all of them). */
  checkEveryMs?: number;
  /** How often those pages are marked as seen, for the Live screen's presence. */
  seenEveryMs?: number;
  /** A comment on every stream this often keeps proxies from closing it as idle. */
  pingEveryMs?: number;
  /** Streams one link may hold open on this replica at once (a student's tabs). */
  maxPerLink?: number;
  /** Streams one client address may hold open on this replica at once (a classroom behind one NAT address). */
  maxPerAddress?: number;
  /** Streams this replica holds open at once, all links together. */
  maxTotal?: number;
  /** Told of every stream refused over a cap (a counter). */
  onRefused?: (cap: StreamCap) => void;
}

export type StreamCap = 'link' | 'address' | 'total';

/** What a refused stream's Retry-After says: a tab closing or an attempt ending frees a place within it. */
export const STREAM_RETRY_AFTER_SECONDS = 30;

const tooMany = (code: string, message: string) =>
  new AppError(code, message, 429, { details: { retryAfterSeconds: STREAM_RETRY_AFTER_SECONDS } });

/**
 * The client a per-address cap counts: an IPv4 address as itself (also in its v4-in-v6 form `::ffff:10.0.0.1`),
 * an IPv6 address by its /64, the least a network is given, so one host cannot take a fresh address per stream.
 */
export function addressKey(address: string): string {
  const plain = address.split('%')[0] ?? '';
  if (!ipaddr.isValid(plain)) return plain;
  const parsed = ipaddr.process(plain);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const network = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${network.join(':')}::/64`;
}

function take(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

function give(counts: Map<string, number>, key: string): void {
  const n = (counts.get(key) ?? 0) - 1;
  if (n > 0) counts.set(key, n);
  else counts.delete(key);
}

const messageOf = (c: AttemptClock): AttemptMessage => ({
  attemptId: c.attemptId,
  deadlineAt: c.deadlineAt.toISOString(),
  status: c.inProgress ? 'in_progress' : 'closed',
  serverNow: c.now.toISOString(),
  addedMinutes: Math.round(c.addedSeconds / 60),
});
const stateOf = (m: AttemptMessage) => `${m.status} ${m.deadlineAt}`;

/**
 * The event streams of the students' pages on this replica. Whatever replica or job changed an attempt (an
 * administrator's extension or end, the deadline job), every replica reads the clocks of the attempts it streams
 * to in one statement every few seconds and tells a page only what changed; nothing is read while no page is
 * connected. A closed attempt is told once and its streams are ended; a student erased ends them too.
 *
 * Streams are counted on this replica per link, per client address and in all, and a place is taken before the
 * link is even read, so a burst of opens stops at the cap exactly. One past a cap is refused (429 with
 * Retry-After) rather than ending an older stream: a page that is refused opens again less and less often, while
 * ending the oldest would have two tabs past the cap end each other every few seconds. A closed tab frees its
 * place as its connection closes.
 */
export function createAttemptStreams(options: Options) {
  const checkEveryMs = options.checkEveryMs ?? 2_500;
  const seenEveryMs = options.seenEveryMs ?? 30_000;
  const pingEveryMs = options.pingEveryMs ?? 20_000;
  const maxPerLink = options.maxPerLink ?? 3;
  const maxPerAddress = options.maxPerAddress ?? 100;
  const maxTotal = options.maxTotal ?? 5_000;
  /** Places taken, by link (its token's hash) and by client address, and in all: open streams and opens under way. */
  const byLink = new Map<string, number>();
  const byAddress = new Map<string, number>();
  let taken = 0;
  /** Pages by attempt, with what each attempt's pages were last told. */
  const watched = new Map<string, { sinks: Set<AttemptSink>; state: string }>();
  /** Every open stream with what closes it, for the pings, the attempt's end and the drain. */
  const open = new Map<AttemptSink, () => void>();
  let checkTimer: NodeJS.Timeout | undefined;
  let pingTimer: NodeJS.Timeout | undefined;
  let lastSeen = Date.now();
  let checking = false;

  function tell(clock: AttemptClock): void {
    const entry = watched.get(clock.attemptId);
    if (!entry) return;
    const message = messageOf(clock);
    const state = stateOf(message);
    if (state !== entry.state) {
      entry.state = state;
      for (const sink of entry.sinks) sink.send(message);
    }
    if (!clock.inProgress) endWatched(clock.attemptId);
  }

  /** The attempt is over or gone: its pages are told nothing more, and their streams end (freeing their places). */
  function endWatched(attemptId: string): void {
    const entry = watched.get(attemptId);
    watched.delete(attemptId);
    for (const sink of [...(entry?.sinks ?? [])]) {
      sink.end();
      open.get(sink)?.();
    }
  }

  async function check(): Promise<void> {
    if (checking || watched.size === 0) return;
    checking = true;
    try {
      const ids = [...watched.keys()];
      const seen = Date.now() - lastSeen >= seenEveryMs;
      const clocks = await attemptClocks(options.database.db, ids, seen);
      if (seen) lastSeen = Date.now();
      const found = new Set(clocks.map((c) => c.attemptId));
      for (const clock of clocks) tell(clock);
      // Gone (the student was erased): nothing more to tell.
      for (const id of ids) if (!found.has(id)) endWatched(id);
    } catch (err) {
      options.logger.warn({ err }, 'reading the clocks of streamed attempts failed; trying again');
    } finally {
      checking = false;
    }
  }

  function ensureTimers(): void {
    checkTimer ??= setInterval(() => void check(), checkEveryMs).unref();
    pingTimer ??= setInterval(() => {
      for (const sink of open.keys()) sink.ping();
    }, pingEveryMs).unref();
  }

  function stopTimersWhenIdle(): void {
    if (open.size > 0) return;
    clearInterval(checkTimer);
    clearInterval(pingTimer);
    checkTimer = pingTimer = undefined;
  }

  return {
    /**
     * Follows the newest attempt of the link's student: the sink is told its state now and on every change, until
     * `close` or the end of the attempt (then `end`). Null when the student never started (nothing to follow); an
     * unknown link is the flow's 404; a link, an address or this replica at its cap of streams a 429.
     */
    async follow(opener: StreamOpener, sink: AttemptSink): Promise<{ close(): void } | null> {
      const hash = tokenHash(opener.token);
      const link = hash.toString('hex');
      const address = addressKey(opener.address);
      if (taken >= maxTotal) {
        options.onRefused?.('total');
        throw tooMany(
          'too_many_streams',
          'The server is following as many test pages as it can; try again shortly',
        );
      }
      if ((byAddress.get(address) ?? 0) >= maxPerAddress) {
        options.onRefused?.('address');
        throw tooMany(
          'too_many_streams',
          `At most ${maxPerAddress} test pages can be followed from one network address at once`,
        );
      }
      if ((byLink.get(link) ?? 0) >= maxPerLink) {
        options.onRefused?.('link');
        throw tooMany(
          'too_many_streams',
          `This test is open in too many tabs (at most ${maxPerLink}); close one and this page follows again`,
        );
      }
      taken += 1;
      take(byLink, link);
      take(byAddress, address);
      let held = true;
      const release = () => {
        if (!held) return;
        held = false;
        taken -= 1;
        give(byLink, link);
        give(byAddress, address);
      };
      let attempt: AttemptClock | null;
      try {
        const opened = await pageOpened(options.database.db, hash);
        usable(opened.student ?? undefined);
        attempt = opened.attempt;
      } catch (err) {
        release();
        throw err;
      }
      if (!attempt) {
        release();
        return null;
      }
      const message = messageOf(attempt);
      sink.send(message);
      if (!attempt.inProgress) {
        // Over already: told so once (the page closes its EventSource), and nothing more to follow.
        release();
        sink.end();
        return { close() {} };
      }
      const attemptId = attempt.attemptId;
      const close = () => {
        if (!held) return;
        release();
        open.delete(sink);
        const following = watched.get(attemptId);
        following?.sinks.delete(sink);
        if (following?.sinks.size === 0) watched.delete(attemptId);
        stopTimersWhenIdle();
      };
      open.set(sink, close);
      const entry = watched.get(attemptId) ?? { sinks: new Set(), state: stateOf(message) };
      entry.sinks.add(sink);
      watched.set(attemptId, entry);
      ensureTimers();
      return { close };
    },
    /** Ends every stream: the service is draining. */
    endAll(): void {
      for (const [sink, close] of [...open]) {
        sink.end();
        close();
      }
      watched.clear();
      stopTimersWhenIdle();
    },
    /** Streams open on this replica (a gauge). */
    size: () => open.size,
    check,
  };
}

export type AttemptStreams = ReturnType<typeof createAttemptStreams>;
