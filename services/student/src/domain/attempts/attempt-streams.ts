import type { Database } from '@readiness/kit/db';
import type { Logger } from '@readiness/kit/logger';
import { attemptClocks, pageOpened, type AttemptClock } from '../../data-access/live-repository';
import { tokenHash } from '../tokens';
import { usable } from './rules';

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
  /** Ends the stream (the service is stopping): the page's EventSource reconnects to another replica. */
  end(): void;
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
 * connected. A closed attempt is told once and no longer read.
 */
export function createAttemptStreams(options: Options) {
  const checkEveryMs = options.checkEveryMs ?? 2_500;
  const seenEveryMs = options.seenEveryMs ?? 30_000;
  const pingEveryMs = options.pingEveryMs ?? 20_000;
  /** Pages by attempt, with what each attempt's pages were last told. */
  const watched = new Map<string, { sinks: Set<AttemptSink>; state: string }>();
  /** Every open stream, for the pings (a closed attempt's page stays connected until it leaves). */
  const open = new Set<AttemptSink>();
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
    if (!clock.inProgress) watched.delete(clock.attemptId);
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
      for (const id of ids) if (!found.has(id)) watched.delete(id);
    } catch (err) {
      options.logger.warn({ err }, 'reading the clocks of streamed attempts failed; trying again');
    } finally {
      checking = false;
    }
  }

  function ensureTimers(): void {
    checkTimer ??= setInterval(() => void check(), checkEveryMs).unref();
    pingTimer ??= setInterval(() => {
      for (const sink of open) sink.ping();
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
     * `close`. Null when the student never started (nothing to follow); an unknown link is the flow's 404.
     */
    async follow(token: string, sink: AttemptSink): Promise<{ close(): void } | null> {
      const { student, attempt } = await pageOpened(options.database.db, tokenHash(token));
      usable(student ?? undefined);
      if (!attempt) return null;
      const message = messageOf(attempt);
      sink.send(message);
      open.add(sink);
      if (attempt.inProgress) {
        const entry = watched.get(attempt.attemptId) ?? { sinks: new Set(), state: stateOf(message) };
        entry.sinks.add(sink);
        watched.set(attempt.attemptId, entry);
      }
      ensureTimers();
      return {
        close() {
          open.delete(sink);
          const entry = watched.get(attempt.attemptId);
          entry?.sinks.delete(sink);
          if (entry?.sinks.size === 0) watched.delete(attempt.attemptId);
          stopTimersWhenIdle();
        },
      };
    },
    /** Ends every stream: the service is draining. */
    endAll(): void {
      for (const sink of [...open]) sink.end();
      open.clear();
      watched.clear();
      stopTimersWhenIdle();
    },
    /** Streams open on this replica (a gauge). */
    size: () => open.size,
    check,
  };
}

export type AttemptStreams = ReturnType<typeof createAttemptStreams>;
