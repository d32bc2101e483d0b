import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  WebAuthnError,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import type { PasskeyOptions } from './api/auth-api';
import { adminT } from '../../i18n/admin/admin-i18n';

/** Whether this browser can use passkeys at all (WebAuthn, on a secure origin). */
export const passkeysSupported = (): boolean => browserSupportsWebAuthn();

/** A passkey ceremony that ended in the browser: the person cancelled, it timed out, or the device refused. */
export class PasskeyUnavailable extends Error {}

function unavailable(err: unknown): PasskeyUnavailable {
  if (err instanceof WebAuthnError && err.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') {
    return new PasskeyUnavailable(adminT('auth.passkeys.alreadyRegistered'));
  }
  if (err instanceof Error && (err.name === 'NotAllowedError' || err.name === 'AbortError')) {
    return new PasskeyUnavailable(adminT('auth.passkeys.cancelled'));
  }
  if (err instanceof WebAuthnError && err.code === 'ERROR_CEREMONY_ABORTED')
    return new PasskeyUnavailable(adminT('auth.passkeys.cancelled'));
  return new PasskeyUnavailable(adminT('auth.passkeys.unsupported'));
}

/** Asks the browser for a passkey's answer to the server's options (`navigator.credentials.get()`). */
export async function answerWithPasskey(options: PasskeyOptions) {
  try {
    const answer = await startAuthentication({
      optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
    });
    return { ...answer, clientExtensionResults: answer.clientExtensionResults as Record<string, unknown> };
  } catch (err) {
    throw unavailable(err);
  }
}

/** Asks the browser to make a new passkey for the server's options (`navigator.credentials.create()`). */
export async function createPasskey(options: PasskeyOptions) {
  try {
    const created = await startRegistration({
      optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
    });
    return { ...created, clientExtensionResults: created.clientExtensionResults as Record<string, unknown> };
  } catch (err) {
    throw unavailable(err);
  }
}
