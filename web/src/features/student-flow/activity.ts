import { typedFetch } from '../../lib/api-fetch';
import type { ActivityEntry } from './api/types';

/*
 * The attempt's timeline: what only the student's page can see of its attempt (the sections reached, the page
 * hidden, the connection lost, pastes into an answer) goes to `POST …/activity`, with the device the page runs
 * on, for the administrator's result detail. Facts, never a penalty, and invisible to the student: a report
 * that fails is tried again later, one the server refuses is dropped, and nothing is ever shown for either.
 * The server records the rest itself (saves, extensions, a second device, the start and the end).
 */

/** Where this browser keeps its device id, shared by every invitation opened in it. */
export const DEVICE_KEY = 'readiness.device';
const DEVICE_ID = /^[A-Za-z0-9_-]{8,64}$/;

/** How long the page waits after a new entry before it reports, so that a burst makes one request. */
export const ACTIVITY_DELAY_MS = 2000;
/** The most entries one report carries (the server refuses more). */
export const ACTIVITY_BATCH = 50;
/** The most entries kept while they cannot be sent: past it, the oldest go. */
export const ACTIVITY_KEPT = 200;
/** How long a submit waits for the last report before it goes anyway. */
export const ACTIVITY_SUBMIT_WAIT_MS = 1500;
/** A report unanswered this long is given up and kept for the next one: a hung request must not hold the rest. */
const REQUEST_TIMEOUT_MS = 15_000;
const RETRY_MIN_MS = 5000;
const RETRY_MAX_MS = 60_000;

let memoryDeviceId: string | undefined;

function newDeviceId(): string {
  const crypto = globalThis.crypto as Crypto | undefined;
  // randomUUID needs a secure context; a page served over plain http still has getRandomValues.
  if (typeof crypto?.randomUUID === 'function') return crypto.randomUUID();
  const bytes = new Uint8Array(16);
  if (typeof crypto?.getRandomValues === 'function') crypto.getRandomValues(bytes);
  else bytes.forEach((_, i) => (bytes[i] = Math.floor(Math.random() * 256)));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * This browser's device id, kept in its storage so that a reload or a second invitation reports the same
 * device; without storage (private mode, storage refused) an id that lasts as long as the page.
 */
export function deviceId(): string {
  try {
    const kept = window.localStorage.getItem(DEVICE_KEY);
    if (kept && DEVICE_ID.test(kept)) return kept;
    const made = newDeviceId();
    window.localStorage.setItem(DEVICE_KEY, made);
    return made;
  } catch {
    memoryDeviceId ??= newDeviceId();
    return memoryDeviceId;
  }
}

interface ReporterOptions {
  token: string;
  attemptId: string;
  deviceId: string;
  delayMs?: number;
}

type Outcome = 'sent' | 'dropped' | 'failed';

export class ActivityReporter {
  private queue: ActivityEntry[] = [];
  /** The opening report (no entries, the device alone) has not reached the server yet. */
  private unregistered = true;
  private opened = false;
  private active = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The report under way: true when it sent everything, false when a batch failed (its retry is set). */
  private sending: Promise<boolean> | null = null;
  private retryMs = RETRY_MIN_MS;

  constructor(private readonly options: ReporterOptions) {}

  /**
   * The attempt's page is open: the first time, a report with no entries registers the device at once (after a
   * reload too: it is a new page). Anything recorded meanwhile follows after the usual delay.
   */
  start(): void {
    this.active = true;
    if (!this.opened) {
      this.opened = true;
      void this.flush();
    } else if (this.pending()) {
      this.schedule(this.options.delayMs ?? ACTIVITY_DELAY_MS);
    }
  }

  /** The page no longer shows the attempt: nothing more is scheduled (what is queued waits for `start`). */
  stop(): void {
    this.active = false;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  record(entry: ActivityEntry): void {
    this.keep([entry]);
    if (this.active) this.schedule(this.options.delayMs ?? ACTIVITY_DELAY_MS);
  }

  /** Reports what is queued now, in batches, one request at a time; never rejects. */
  flush = async (): Promise<void> => {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.sending) {
      // Entries recorded while the last report was under way go now, unless it failed (its retry is set).
      if (await this.sending) return this.flush();
      return;
    }
    if (!this.active || !this.pending()) return;
    this.sending = this.sendAll().finally(() => {
      this.sending = null;
    });
    await this.sending;
  };

  /** The page is being hidden or closed: requests that outlive it carry whatever is queued. */
  leave = (): void => {
    if (!this.active || this.queue.length === 0) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.queue.length > 0) void this.send(this.queue.splice(0, ACTIVITY_BATCH), true);
  };

  private pending(): boolean {
    return this.queue.length > 0 || this.unregistered;
  }

  private async sendAll(): Promise<boolean> {
    while (this.active && this.pending()) {
      if ((await this.send(this.queue.splice(0, ACTIVITY_BATCH), false)) === 'failed') return false;
    }
    return true;
  }

  /** Queues entries after those waiting (or before them, for a batch that failed), keeping the newest. */
  private keep(entries: ActivityEntry[], first = false): void {
    this.queue = first ? [...entries, ...this.queue] : [...this.queue, ...entries];
    if (this.queue.length > ACTIVITY_KEPT) this.queue.splice(0, this.queue.length - ACTIVITY_KEPT);
  }

  private schedule(delay: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), delay);
  }

  private async send(entries: ActivityEntry[], keepalive: boolean): Promise<Outcome> {
    let status: number;
    // A request that outlives the page is left alone: the page is going and nothing waits for it.
    const controller = keepalive ? undefined : new AbortController();
    const timeout = controller && setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
    try {
      const response = await typedFetch('/api/student/{token}/activity', 'post', {
        path: { token: this.options.token },
        body: { attemptId: this.options.attemptId, deviceId: this.options.deviceId, entries },
        init: { keepalive, signal: controller?.signal },
      });
      status = response.status;
    } catch {
      status = 0;
    } finally {
      clearTimeout(timeout);
    }
    if (status === 0 || status === 429 || status >= 500) {
      // No connection, or the server cannot take it now: kept for a later report, which is tried by itself too.
      this.keep(entries, true);
      if (this.active) this.schedule(this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
      return 'failed';
    }
    this.retryMs = RETRY_MIN_MS;
    this.unregistered = false;
    // Any other refusal (the attempt closed, the link no longer valid, an entry out of range) never succeeds.
    return status >= 200 && status < 300 ? 'sent' : 'dropped';
  }
}

/** Waits for `work` at most `ms`; never rejects (what is being waited for must never hold anything up). */
export async function settleWithin(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    work.catch(() => undefined),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))),
  ]);
  clearTimeout(timer);
}
