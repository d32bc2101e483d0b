/*
 * The server owns the clock (DESIGN §7). A page keeps the difference between the server's clock and its own,
 * measured when an answer carrying `serverNow` arrived, and computes the time left from the deadline at every
 * tick: a background tab whose timers were slowed still shows the right time.
 */

/** How far the server's clock is ahead of this device's (negative when behind), in milliseconds. */
export function clockOffset(serverNow: string, receivedAt: number): number {
  const server = Date.parse(serverNow);
  return Number.isNaN(server) ? 0 : server - receivedAt;
}

/** Milliseconds left until the deadline by the server's clock, never below zero. */
export function timeLeft(deadlineAt: string, offset: number, now = Date.now()): number {
  return Math.max(0, Date.parse(deadlineAt) - (now + offset));
}

const two = (n: number) => String(n).padStart(2, '0');

/** SPEC §2: h:mm:ss when over one hour, otherwise m:ss. Partial seconds count as a whole second. */
export function formatCountdown(ms: number): string {
  const total = Math.ceil(Math.max(0, ms) / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  return total > 3600
    ? `${hours}:${two(minutes)}:${two(seconds)}`
    : `${Math.floor(total / 60)}:${two(seconds)}`;
}
