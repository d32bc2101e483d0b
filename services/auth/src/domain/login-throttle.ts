import { createHash } from 'node:crypto';
import type { RateLimiter } from '@readiness/kit/cache';
import { AppError } from '@readiness/kit/errors';

/** Failed logins allowed per account within the window before the account is locked. */
export const ACCOUNT_FAILURES = 10;
/** Failed logins allowed per client address within the window (several people may share one NAT address). */
export const ADDRESS_FAILURES = 50;
export const WINDOW_SECONDS = 15 * 60;
export const LOCKOUT_SECONDS = 15 * 60;

export interface LoginThrottle {
  /** Throws 429 when the account or the address is locked out. */
  assertAllowed(email: string, ip: string): Promise<void>;
  recordFailure(email: string, ip: string): Promise<void>;
  /** A successful login forgets the account's failures (the address keeps its count). */
  recordSuccess(email: string): Promise<void>;
}

function tooMany(retryAfterSeconds: number): AppError {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return new AppError(
    'too_many_login_attempts',
    `Too many login attempts. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
    429,
    { details: { retryAfterSeconds } },
  );
}

/** E-mail addresses are hashed before they become keys in the shared store: no personal data in Redis key names. */
const accountKey = (email: string) => createHash('sha256').update(email).digest('base64url');

/**
 * Failures are counted, successes are not: the budget is spent only by wrong passwords. Once an account has
 * used its budget, the next attempt (right password or not) starts a lockout of LOCKOUT_SECONDS, during which
 * the password is not even checked, so guessing during a lockout learns nothing.
 */
export function createLoginThrottle(limits: { account: RateLimiter; address: RateLimiter }): LoginThrottle {
  async function check(limiter: RateLimiter, key: string, budget: number): Promise<void> {
    const state = await limiter.get(key);
    if (!state || state.consumed < budget) return;
    // Consuming past the budget makes the limiter block the key for the lockout period.
    const decision = await limiter.consume(key);
    if (!decision.allowed) throw tooMany(decision.retryAfterSeconds);
  }

  return {
    async assertAllowed(email, ip) {
      await check(limits.account, accountKey(email), ACCOUNT_FAILURES);
      await check(limits.address, ip, ADDRESS_FAILURES);
    },
    async recordFailure(email, ip) {
      await Promise.all([limits.account.consume(accountKey(email)), limits.address.consume(ip)]);
    },
    async recordSuccess(email) {
      await limits.account.reset(accountKey(email));
    },
  };
}
