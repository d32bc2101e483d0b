import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  WebAuthnError,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import type { PasskeyOptions } from './api/auth-api';

/** Whether this browser can use passkeys at all (WebAuthn, on a secure origin). */
export const passkeysSupported = (): boolean => browserSupportsWebAuthn();

/** A passkey ceremony that ended in the browser: the person cancelled, it timed out, or the device refused. */
export class PasskeyUnavailable extends Error {}

const CANCELLED = 'The passkey request was cancelled or timed out.';

function unavailable(err: unknown): PasskeyUnavailable {
  if (err instanceof WebAuthnError && err.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') {
    return new PasskeyUnavailable('This passkey is already registered for your account.');
  }
  if (err instanceof Error && (err.name === 'NotAllowedError' || err.name === 'AbortError')) {
    return new PasskeyUnavailable(CANCELLED);
  }
  if (err instanceof WebAuthnError && err.code === 'ERROR_CEREMONY_ABORTED')
    return new PasskeyUnavailable(CANCELLED);
  return new PasskeyUnavailable('This browser could not use a passkey here.');
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
