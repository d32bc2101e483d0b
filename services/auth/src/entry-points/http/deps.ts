import type { AdminAccounts } from '../../domain/admin-accounts';
import type { SigningKeys } from '../../infrastructure/signing-keys';

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
