import { AppError } from '../errors';

export const SUPER_ADMIN_ROLE = 'super_admin';

/**
 * How an admin signed in, as a token's `amr` claim lists it (carried over by every renewal): a password, then a
 * second factor (`otp` for an authenticator code, `recovery-code`, `passkey`), a passkey alone, or the
 * institution's provider (`sso`).
 */
export type SignInMethod = 'pwd' | 'otp' | 'recovery-code' | 'passkey' | 'sso';

/** Who may sign in other than through the institution's provider (`OIDC_ALLOW_PASSWORD`). */
export type PasswordSignIn = 'everyone' | 'super-admins';

/** The settings in force that every token is checked against, whenever it was issued. */
export interface SessionRules {
  /** `ADMIN_SESSION_MAX_HOURS`: no token of a session that began longer ago is accepted. */
  maxSessionSeconds: number;
  passwordSignIn: PasswordSignIn;
}

/** The rules as the shared settings (`jwtEnv`) give them. */
export const sessionRulesOf = (config: {
  ADMIN_SESSION_MAX_HOURS: number;
  OIDC_ALLOW_PASSWORD: boolean;
}): SessionRules => ({
  maxSessionSeconds: Math.floor(config.ADMIN_SESSION_MAX_HOURS * 3600),
  passwordSignIn: config.OIDC_ALLOW_PASSWORD ? 'everyone' : 'super-admins',
});

/**
 * The one rule of sign-in without the provider (a password, or a passkey alone): where the institution signs its
 * staff in through its provider, only super admins keep it, as the way in while the provider is down.
 */
export const signInWithoutProviderAllowed = (passwordSignIn: PasswordSignIn, role: string): boolean =>
  passwordSignIn === 'everyone' || role === SUPER_ADMIN_ROLE;

const SESSION_MAX_AGE_MESSAGE = 'Your session has reached its maximum length. Please sign in again.';
const SIGN_IN_METHOD_OFF_MESSAGE =
  'The way you signed in is no longer allowed for your account. Please sign in again.';

/**
 * Refuses (401) a token the settings in force no longer allow, whatever they were when it was issued: a session
 * that began longer ago than the maximum age (`session_max_age`), or a sign-in without the provider by an admin
 * who may now only use the provider (`sign_in_method_off`; a token that does not say how it was signed in counts
 * as one without the provider). `role` is the token's, or the account's current one where that is known.
 */
export function assertSessionAllowed(
  claims: { iat: number; auth_time?: number; amr?: unknown; role: string },
  rules: SessionRules,
  nowSeconds: number,
): void {
  const startedAt = claims.auth_time ?? claims.iat;
  if (nowSeconds >= startedAt + rules.maxSessionSeconds) {
    throw new AppError('session_max_age', SESSION_MAX_AGE_MESSAGE, 401);
  }
  const throughProvider = Array.isArray(claims.amr) && claims.amr.includes('sso');
  if (!throughProvider && !signInWithoutProviderAllowed(rules.passwordSignIn, claims.role)) {
    throw new AppError('sign_in_method_off', SIGN_IN_METHOD_OFF_MESSAGE, 401);
  }
}
