import type { SignInMethod } from '@readiness/kit/auth';

// What the admin-account use cases need to check passwords and hand out tokens; `infrastructure/` provides them.

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  compare(password: string, hash: string): Promise<boolean>;
  /**
   * Refuses new work at once, lets the queued and running hashes finish (a login already accepted still gets
   * its answer during a rolling update), then ends the workers. Work still unfinished after `timeoutMs`
   * (default 10 s) is rejected so a stuck worker cannot hold the shutdown.
   */
  close(options?: { timeoutMs?: number }): Promise<void>;
}

export interface IssuedToken {
  token: string;
  jti: string;
  sid: string;
  iat: number;
  exp: number;
}

/** A sign-in and every token renewed from it. */
export interface Session {
  id: string;
  /** The sign-in, seconds since the epoch. */
  startedAt: number;
  /** How the sign-in was made (the tokens' `amr`). */
  methods: SignInMethod[];
}

export interface TokenIssuer {
  /** The moment (epoch seconds) after which no token of a session started at `startedAt` may be valid. */
  sessionEnd(startedAt: number): number;
  /**
   * Signs an admin token. `notBefore` is the admin's revocation cutoff (epoch seconds): a token issued in the
   * same second as a password change would otherwise fall under the cutoff and be refused at once, so its
   * `iat` is lifted to the cutoff (at most one second ahead of the clock).
   */
  issue(
    admin: { id: string; role: string; tokensValidFrom: number; mustChangePassword: boolean },
    session: Session,
  ): Promise<IssuedToken>;
}
