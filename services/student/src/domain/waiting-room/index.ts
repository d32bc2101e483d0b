import type { KeyValueStore } from '@readiness/kit/cache';
import type { Database } from '@readiness/kit/db';
import type { Logger } from '@readiness/kit/logger';
import { createJobWaker } from '@readiness/kit/runtime';
import { Counter, Gauge, type Registry } from 'prom-client';
import {
  arrive,
  figures,
  saveCeiling,
  startedLastMinute,
  tick,
  view,
  type LineBounds,
  type LineFigures,
  type LineTick,
} from '../../data-access/waiting-room-repository';
import { boundedCache } from '../versions';
import { lineFollowers } from './line-followers';
import { headroom, pressureGauge, type PressureLimits } from './pressure';

/**
 * `measured`: the admission rate follows the replicas' measured pressure, within an administrator's ceiling.
 * `limit-only`: only an administrator's ceiling forms a line (the test suites' products, whose machine is busy with
 * the suite itself). `off`: every student starts at once.
 */
export type WaitingRoomMode = 'measured' | 'limit-only' | 'off';

export interface WaitingRoomDeps {
  database: Database;
  logger: Logger;
  registry: Registry;
  /** Where `waiting-room:busy` is kept for the other services' background work (absent: nobody is told). */
  kv?: KeyValueStore;
  mode: WaitingRoomMode;
  /** The rate's bounds, in admissions a minute: the highest without a ceiling, the lowest pressure brings it to. */
  maxPerMinute: number;
  minPerMinute: number;
  /** How long an admitted student's admission waits for their Start. */
  holdMinutes: number;
  /** How long, at least, background work keeps yielding after the line empties (DRAIN_MAX_MS at most). */
  drainSeconds: number;
  pressure: PressureLimits;
}

/** The other services' background work yields while this key is set (docs/waiting-room.md). */
export const BUSY_KEY = 'waiting-room:busy';
const BUSY_TTL_SECONDS = 5;
/** How long after its last arrival a replica keeps looking at the line each second. */
const ACTIVE_AFTER_ARRIVAL_MS = 30_000;
const LOOK_EVERY_MS = 1_000;
/**
 * After the line empties, the other services' background work keeps yielding for at least `drainSeconds` (the
 * students let in last make their load 3 to 20 s after their Start, so the first looks after the line empties read
 * cool too early), then until three looks in a row find every replica cool, and for at most DRAIN_MAX_MS: the work
 * held back during the peak (thousands of certificates and mails) would otherwise resume all at once on top of them.
 */
const DRAIN_MAX_MS = 120_000;
/** The public figures are read at most this often per replica, whoever asks. */
const FIGURES_FRESH_MS = 1_000;
/** "Unlimited" in `limit-only` mode without a ceiling: a second's worth of admissions nobody reaches. */
const UNLIMITED_PER_SECOND = 1e6;
/** The line's followers one replica serves (each gateway follows it once), and how long each follows. */
const LINE_FOLLOWERS_MAX = 64;
const LINE_FOLLOW_MS = 5 * 60_000;
/** Links whose last answer (waiting) this replica keeps for a second. */
const RECENT_LINKS = 10_000;

/** A student's answer from the line: start now, or their ticket and the line as it stands. */
export type Admission = { admitted: true } | InLine;
export interface InLine {
  admitted: false;
  ticket: number;
  ahead: number;
  estimateSeconds: number | null;
  line: PublicLine;
}

export interface PublicLine {
  serving: number;
  perMinute: number;
  waiting: number;
}

export interface WaitingRoomView extends PublicLine {
  enabled: boolean;
  unlimited: boolean;
  longestWaitSeconds: number;
  ceilingPerMinute: number | null;
  pressure: 'healthy' | 'overloaded';
  admittedLastMinute: number;
}

const perMinute = (perSecond: number) => Math.round(perSecond * 60 * 10) / 10;
const publicLine = (f: LineFigures): PublicLine => ({
  serving: Math.floor(f.serving),
  perMinute: perMinute(f.perSecond),
  waiting: f.waiting,
});

/** How many are before a ticket, and about how long until it is served at the current rate. */
export function place(ticket: number, line: LineFigures) {
  const behind = ticket - Math.floor(line.serving);
  return {
    ahead: Math.max(0, behind - 1),
    estimateSeconds: line.perSecond > 0 ? Math.max(1, Math.ceil(behind / line.perSecond)) : null,
  };
}

/**
 * The fair line at the start (docs/waiting-room.md): the order lives in PostgreSQL (migration 0015), so every replica
 * hands out tickets from one counter and a restart loses nobody's place. While students arrive or wait, each replica
 * looks at the line once a second: it reports its pressure, the rate follows, and `waiting-room:busy` tells the
 * other services' background work to yield.
 */
export function createWaitingRoom(deps: WaitingRoomDeps) {
  const { database, logger, mode } = deps;
  const bound = mode === 'limit-only' ? UNLIMITED_PER_SECOND : deps.maxPerMinute / 60;
  const bounds: LineBounds = {
    bound,
    // Only a ceiling forms a line in `limit-only`: the rate never leaves the bound.
    least: mode === 'limit-only' ? bound : deps.minPerMinute / 60,
    holdSeconds: deps.holdMinutes * 60,
  };
  const feel = mode === 'measured' ? pressureGauge(() => database.waitingForConnection()) : undefined;
  const waker = createJobWaker();
  let activeUntil = 0;
  let nextLookAt = 0;
  /** When this replica last saw a student waiting: the line drains from then (see DRAIN_MAX_MS). */
  let lineSeenAt = 0;
  let drained = true;
  let coolLooks = 0;
  const draining = () => !drained && Date.now() - lineSeenAt < DRAIN_MAX_MS;
  let last: LineTick | undefined;
  let cached: { at: number; figures: Promise<LineFigures> } | undefined;
  const recent = boundedCache<{ at: number; waiting: InLine }>(RECENT_LINKS);

  const gauge = (name: string, help: string) => new Gauge({ name, help, registers: [deps.registry] });
  const counter = (name: string, help: string) => new Counter({ name, help, registers: [deps.registry] });
  const metrics = {
    waiting: gauge(
      'student_waiting_room_waiting',
      'Students waiting in line to start, as this replica last saw the line',
    ),
    longest: gauge(
      'student_waiting_room_longest_wait_seconds',
      'How long the first student in line has waited, as this replica last saw the line',
    ),
    rate: gauge(
      'student_waiting_room_admission_per_minute',
      'The rate the line moves at: admissions a minute',
    ),
    pressure: gauge(
      'student_waiting_room_pressure',
      '1 while any replica reports pressure (its event loop late, its database connections all taken)',
    ),
    admitted: counter(
      'student_waiting_room_admitted_total',
      'Starts admitted by this replica, at once or after waiting in line',
    ),
    queued: counter(
      'student_waiting_room_tickets_total',
      'Starts this replica put in line (a student asking again keeps their ticket)',
    ),
  };

  /** Tells the other services' background work to yield: the number waiting, or 0 while the line drains. */
  const busy = (waiting: number, yieldAll: boolean) =>
    deps.kv && (waiting > 0 || yieldAll)
      ? deps.kv.set(BUSY_KEY, String(waiting), BUSY_TTL_SECONDS).catch((err: unknown) => {
          logger.warn({ err }, 'the waiting room could not tell the other services that students wait');
        })
      : undefined;

  /** One look at the line (the job's pass): pressure reported, figures kept for the metrics and the busy flag. */
  async function look() {
    if (mode === 'off') return;
    if (Date.now() > activeUntil && !(last && last.waiting > 0) && !draining()) {
      feel?.rest();
      return;
    }
    nextLookAt = Date.now() + LOOK_EVERY_MS;
    const reading = feel?.look();
    const state = reading ? headroom(reading, deps.pressure) : 'cool';
    if (state !== 'cool') logger.debug({ reading, state }, 'the waiting room nears its limits');
    last = await tick(database.db, state, bounds);
    metrics.waiting.set(last.waiting);
    metrics.longest.set(last.longestWaitSeconds);
    metrics.rate.set(perMinute(last.perSecond));
    metrics.pressure.set(last.underPressure ? 1 : 0);
    // Nobody waits any more, but the students let in last still need the room: the background work keeps yielding
    // (`drainSeconds`, then until three looks in a row find every replica cool).
    coolLooks = state === 'cool' && !last.underPressure ? coolLooks + 1 : 0;
    if (last.waiting > 0) {
      lineSeenAt = Date.now();
      drained = false;
    } else if (coolLooks >= 3 && Date.now() - lineSeenAt >= deps.drainSeconds * 1000) drained = true;
    await busy(last.waiting, draining());
  }

  function lineFigures(): Promise<LineFigures> {
    const now = Date.now();
    if (!cached || now - cached.at >= FIGURES_FRESH_MS) {
      const read = figures(database.db, bounds.bound);
      cached = { at: now, figures: read };
      read.catch(() => {
        if (cached?.figures === read) cached = undefined;
      });
    }
    return cached.figures;
  }

  async function publicFigures(): Promise<PublicLine> {
    const f = await lineFigures();
    if (f.waiting > 0 && mode !== 'off') {
      // Pages wait on a replica that has not looked at the line lately (every replica restarted): it looks now.
      if (Date.now() > activeUntil) waker.wake();
      activeUntil = Math.max(activeUntil, Date.now() + LOOK_EVERY_MS * 5);
    }
    return publicLine(f);
  }
  const followers = lineFollowers({
    read: publicFigures,
    max: LINE_FOLLOWERS_MAX,
    everyMs: FIGURES_FRESH_MS,
    maxFollowMs: LINE_FOLLOW_MS,
    onError: (err) => logger.warn({ err }, 'the line could not be read for its followers'),
  });

  return {
    mode,
    /** A student with nothing in progress asks to start: admitted, or their ticket (the same one when asking again). */
    async admit(studentId: string, key: string): Promise<Admission> {
      if (mode === 'off') return { admitted: true };
      const idle = Date.now() > activeUntil;
      activeUntil = Date.now() + ACTIVE_AFTER_ARRIVAL_MS;
      if (idle) {
        // What the replica felt while nobody arrived (its start, an idle night) says nothing of now.
        feel?.look();
        waker.wake();
      }
      feel?.sample();
      const arrival = await arrive(database.db, studentId, bounds);
      if (arrival.admitted) {
        metrics.admitted.inc();
        recent.delete(key);
        return { admitted: true };
      }
      metrics.queued.inc();
      const waiting: InLine = {
        admitted: false,
        ticket: arrival.ticket,
        ...place(arrival.ticket, arrival),
        line: publicLine(arrival),
      };
      recent.set(key, { at: Date.now(), waiting });
      return waiting;
    },
    /**
     * The answer this replica gave the link within the last second while it waited: a flood of one link's Starts is
     * answered from memory, reading nothing.
     */
    recentlyWaiting(key: string): InLine | undefined {
      const hit = recent.get(key);
      return hit && Date.now() - hit.at < FIGURES_FRESH_MS ? hit.waiting : undefined;
    },
    /** A call of a student already taking the test took `ms` (autosave, submit): pressure when they are slow. */
    served(ms: number) {
      feel?.served(ms);
    },
    /** The line's figures everyone may read (the same for all: a second old at most on this replica). */
    line: publicFigures,
    /** The gateways following the line, each for every waiting page it holds (docs/waiting-room.md). */
    followers,
    /** What an administrator sees on the Live screen. */
    async view(): Promise<WaitingRoomView> {
      const [now, started] = await Promise.all([
        view(database.db, bounds.bound),
        startedLastMinute(database.db),
      ]);
      return {
        enabled: mode !== 'off',
        unlimited: mode === 'limit-only' && now.ceilingPerMinute === null,
        serving: Math.floor(now.serving),
        perMinute: perMinute(now.perSecond),
        waiting: now.waiting,
        longestWaitSeconds: Math.round(now.longestWaitSeconds),
        ceilingPerMinute: now.ceilingPerMinute,
        pressure: now.underPressure ? 'overloaded' : 'healthy',
        admittedLastMinute: started,
      };
    },
    /** An administrator's ceiling on the rate (null: the measured capacity alone). */
    async setCeiling(ceilingPerMinute: number | null, by: string) {
      await saveCeiling(database, { ceilingPerMinute, by, bound: bounds.bound });
      cached = undefined;
      logger.info({ ceilingPerMinute, by }, 'the waiting room’s admission ceiling changed');
    },
    /** The pass the runtime repeats: each second while students arrive or wait, else nothing at all. */
    job: {
      look,
      nextDue: async () =>
        Date.now() <= activeUntil || (last?.waiting ?? 0) > 0 || draining() ? new Date(nextLookAt) : null,
      waker,
    },
    stop: () => {
      feel?.rest();
      followers.endAll();
    },
  };
}

export type WaitingRoom = ReturnType<typeof createWaitingRoom>;
