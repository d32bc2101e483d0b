import type { AdminAccounts } from '../../domain/admin-accounts';
import type { SigningKeys } from '@readiness/kit/auth';

export interface AuthApiDeps {
  accounts: AdminAccounts;
  keys: SigningKeys;
  /** The site's origin: where the login page is, and the base of the redirect URI registered with the provider. */
  publicOrigin: string;
  /** `{PUBLIC_ORIGIN}/api/auth/oidc/callback`. */
  redirectUri: string;
}

/** The single sign-on cookie is only sent to the sign-in's own calls. */
export const SSO_COOKIE_PATH = '/api/auth/oidc';

/** The refusal of a change of a factor without a fresh proof of the person; the Security page then asks for one. */
export const NEEDS_PROOF =
  'Not allowed for this admin, or `reauthentication_required`: prove who you are first (POST /api/auth/reauthenticate)';
