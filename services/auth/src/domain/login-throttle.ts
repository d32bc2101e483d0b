import { createHash } from 'node:crypto';
import type { RateLimiter } from '@readiness/kit/cache';
import { AppError } from '@readiness/kit/errors';

/** Password checks allowed per account within the window before the account is locked. */
export const ACCOUNT_FAILURES = 10;
/** Password checks allowed per client address within the window (several people may share one NAT address). */
export const ADDRESS_FAILURES = 50;
/** Second-factor codes allowed per account within the window: 5 guesses at a six-digit code are 1 in 66,000. */
export const SECOND_FACTOR_FAILURES = 5;
/** Audit entries of refused single sign-ons per client address within the window; later refusals are only logged. */
export const SSO_REFUSAL_AUDITS = 20;
export const WINDOW_SECONDS = 15 * 60;
export const LOCKOUT_SECONDS = 15 * 60;

export interface LoginThrottle {
  /**
   * Takes one attempt from the address's and the account's budget, atomically in the shared store, before the
   * password is checked; throws 429 when either budget is spent (the password is then not checked at all).
   */
  consumeAttempt(email: string, ip: string, check?: PasswordCheck): Promise<void>;
  /** A successful login forgets the account's failures and gives its attempt back to the address. */
  recordSuccess(email: string, ip: string): Promise<void>;
}

/**
 * Which check spends the budget: sign-in, or the current password of a password change. Both draw on one budget per
 * account and per address, so a stolen session cannot guess the password through the change form beyond what
 * sign-in allows. Second-factor codes are counted the same way, by a throttle of their own (SECOND_FACTOR_FAILURES).
 */
export type PasswordCheck = 'login' | 'current-password' | 'second-factor';

const REFUSALS: Record<PasswordCheck, { code: string; what: string }> = {
  login: { code: 'too_many_login_attempts', what: 'login' },
  'current-password': { code: 'too_many_password_attempts', what: 'password' },
  'second-factor': { code: 'too_many_code_attempts', what: 'code' },
};

function tooMany(retryAfterSeconds: number, check: PasswordCheck): AppError {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  const { code, what } = REFUSALS[check];
  return new AppError(
    code,
    `Too many ${what} attempts. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
    429,
    { details: { retryAfterSeconds } },
  );
}

/** E-mail addresses are hashed before they become keys in the shared store: no personal data in Redis key names. */
const accountKey = (email: string) => createHash('sha256').update(email).digest('base64url');

/**
 * Every attempt is counted before the password hash, never after it: a count taken after the check lets a
 * parallel burst through (every request reads the old count, then hashes). The store's consume is one atomic
 * increment, so of any burst, serial or parallel, at most the budget gets a password checked. The attempt
 * past the budget starts a lockout of LOCKOUT_SECONDS during which nothing is checked, the right password
 * included, so guessing during a lockout learns nothing. The address is counted first, so requests from an
 * address that is already locked out do not spend the budget of the accounts they name.
 */
export function createLoginThrottle(limits: { account: RateLimiter; address: RateLimiter }): LoginThrottle {
  async function take(limiter: RateLimiter, key: string, check: PasswordCheck): Promise<void> {
    const decision = await limiter.consume(key);
    if (!decision.allowed) throw tooMany(decision.retryAfterSeconds, check);
  }

  return {
    async consumeAttempt(email, ip, check = 'login') {
      await take(limits.address, ip, check);
      await take(limits.account, accountKey(email), check);
    },
    async recordSuccess(email, ip) {
      await Promise.all([limits.account.reset(accountKey(email)), limits.address.reward(ip)]);
    },
  };
}
