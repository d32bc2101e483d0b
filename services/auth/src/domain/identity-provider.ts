// What single sign-on needs of the institution's OpenID Provider; `infrastructure/identity-provider.ts` provides it.

/** Who the provider says signed in. */
export interface ProviderIdentity {
  subject: string;
  email?: string;
  /** The provider's `email_verified`: only a verified address is matched to an admin. */
  emailVerified: boolean;
  name?: string;
}

/** One sign-in's secrets, kept between the redirect and the callback. */
export interface SignInSecrets {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface IdentityProvider {
  /** The secrets of a new sign-in and the provider's authorization URL that carries them. */
  begin(): Promise<{ secrets: SignInSecrets; url: string }>;
  /**
   * Exchanges the code in `callbackUrl` (the URL the provider sent the browser to) and checks everything:
   * state, PKCE, the ID token's signature, issuer, audience, expiry and nonce. Throws `SignInRefused` otherwise.
   */
  identify(callbackUrl: URL, secrets: SignInSecrets): Promise<ProviderIdentity>;
  /** The provider's end-session URL, when it has one. */
  endSessionUrl(postLogoutRedirectUri: string): Promise<string | undefined>;
}

/** The callback does not prove who signed in, or the person said no at the provider: nothing changes. */
export class SignInRefused extends Error {
  constructor(
    readonly reason: 'cancelled' | 'failed',
    message: string,
  ) {
    super(message);
  }
}

/** The code of the 503 a sign-in answers while the provider cannot be reached. */
export const PROVIDER_UNAVAILABLE = 'sso_unavailable';
