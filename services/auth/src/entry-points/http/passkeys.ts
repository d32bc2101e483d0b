import { notFound } from '@readiness/kit/errors';
import { operationsFor } from '@readiness/kit/openapi';
import { z } from 'zod';
import { NEEDS_PROOF, type AuthApiDeps } from './deps';
import type { MultiFactorAccess } from './multi-factor';
import { clientOf, toAdminJson } from './views';
import {
  addPasskeyBody,
  addPasskeyResponse,
  challengeBody,
  passkeyOptionsResponse,
  passkeySignInBody,
  secondFactorSessionResponse as passkeySessionResponse,
} from './schemas';

const operation = operationsFor<AuthApiDeps>();
const ok = (body: z.ZodType) => ({ description: 'OK', body });
const INVALID = 'Invalid input; `message` names the first problem';
const UNAUTHORIZED = 'Missing, invalid, expired or revoked token';
const FORBIDDEN = 'Not allowed for this admin';

const passkeyId = z.object({ id: z.uuid() });
export const passkeyJsonOf = (p: {
  id: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  synced: boolean;
}) => ({
  ...p,
  createdAt: p.createdAt.toISOString(),
  lastUsedAt: p.lastUsedAt?.toISOString() ?? null,
});

/**
 * Passkeys: a second factor after the password, a sign-in of their own, and the admin's own list of them. The
 * ceremonies' checks are in the domain (`domain/admin-accounts/passkeys.ts`).
 */
export const passkeyOperations = ({
  signedIn,
  session,
}: Pick<MultiFactorAccess, 'signedIn' | 'session'>) => ({
  'POST /api/auth/login/mfa/passkey-options': operation({
    tags: ['auth'],
    summary:
      "Second step of sign-in with a passkey: the options for navigator.credentials.get() (the admin's passkeys)",
    body: challengeBody,
    responses: {
      200: ok(passkeyOptionsResponse),
      400: INVALID,
      401: 'The challenge expired',
      409: 'The admin has no passkey',
    },
    handle: async ({ body }, { accounts }) => ({
      options: await accounts.secondFactorPasskeyOptions(body.challenge),
    }),
  }),
  'POST /api/auth/login/passkey/options': operation({
    tags: ['auth'],
    summary:
      'Sign-in with a passkey alone: the options for navigator.credentials.get() (any of the site’s passkeys)',
    responses: { 200: ok(passkeyOptionsResponse) },
    handle: async (_input, { accounts }) => ({ options: await accounts.passkeySignInOptions() }),
  }),
  'POST /api/auth/login/passkey': operation({
    tags: ['auth'],
    summary:
      'Sign in with a passkey alone (verified on the device): a session, as after a password and a code',
    body: passkeySignInBody,
    responses: {
      200: ok(passkeySessionResponse),
      400: INVALID,
      401: 'Unknown passkey, a refused or replayed answer, or a disabled account',
    },
    async handle({ body, req }, { accounts }) {
      const signedInNow = await accounts.signInWithPasskey(body.passkey, clientOf(req));
      return { token: signedInNow.token.token, admin: toAdminJson(signedInNow.admin) };
    },
  }),
  'POST /api/auth/mfa/passkeys/options': operation({
    tags: ['auth'],
    summary: 'Start adding a passkey: the options for navigator.credentials.create()',
    admin: true,
    before: signedIn,
    responses: {
      200: ok(passkeyOptionsResponse),
      401: UNAUTHORIZED,
      403: NEEDS_PROOF,
      409: 'Ten passkeys already',
    },
    handle: async ({ res }, { accounts }) => ({
      options: await accounts.passkeyRegistrationOptions(session(res)),
    }),
  }),
  'POST /api/auth/mfa/passkeys': operation({
    tags: ['auth'],
    summary:
      "Add the browser's new passkey; answers the ten recovery codes when it is the first second factor",
    admin: true,
    before: signedIn,
    body: addPasskeyBody,
    responses: {
      201: { description: 'Added', body: addPasskeyResponse },
      400: 'Invalid input, or the passkey could not be verified',
      401: UNAUTHORIZED,
      403: NEEDS_PROOF,
      409: 'Already registered, or ten passkeys already',
    },
    async handle({ body, res }, { accounts }) {
      const added = await accounts.addPasskey(session(res), body.name, body.passkey);
      res.status(201);
      return {
        passkey: passkeyJsonOf({ ...added.passkey, synced: added.passkey.backedUp }),
        ...(added.recoveryCodes ? { recoveryCodes: added.recoveryCodes } : {}),
      };
    },
  }),
  'POST /api/auth/reauthenticate/passkey-options': operation({
    tags: ['auth'],
    summary:
      "Prove it is you with a passkey: the options for navigator.credentials.get() (the admin's passkeys)",
    admin: true,
    before: signedIn,
    responses: {
      200: ok(passkeyOptionsResponse),
      401: UNAUTHORIZED,
      403: FORBIDDEN,
      409: 'No passkey is set up',
    },
    handle: async ({ res }, { accounts }) => ({
      options: await accounts.stepUpPasskeyOptions(session(res)),
    }),
  }),
  'DELETE /api/auth/mfa/passkeys/{id}': operation({
    tags: ['auth'],
    summary: 'Remove one of your passkeys (not the last second factor while the policy requires one)',
    admin: true,
    before: signedIn,
    params: passkeyId,
    invalidParams: () => notFound('Passkey not found', 'passkey_not_found'),
    responses: {
      204: { description: 'Removed' },
      401: UNAUTHORIZED,
      403: 'Required for every admin, or `reauthentication_required`',
      404: 'Passkey not found',
    },
    async handle({ params, res }, { accounts }) {
      await accounts.removePasskey(session(res), params.id);
      res.status(204).end();
    },
  }),
});
