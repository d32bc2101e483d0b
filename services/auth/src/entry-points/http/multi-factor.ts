import { operationsFor } from '@readiness/kit/openapi';
import type { Response } from 'express';
import type { z } from 'zod';
import type { Authenticated } from '../../domain/admin-accounts';
import { NEEDS_PROOF, type AuthApiDeps } from './deps';
import { passkeyJsonOf } from './passkeys';
import { clientOf, toAdminJson } from './views';
import {
  adminResponse,
  challengeBody,
  codeBody,
  mfaRequiredBody,
  recoveryCodesResponse,
  secondFactorBody,
  secondFactorSessionResponse,
  securitySettingsResponse,
  securityStatusResponse,
  stepUpBody,
  stepUpResponse,
  totpEnrolmentResponse,
} from './schemas';

const operation = operationsFor<AuthApiDeps>();
const ok = (body: z.ZodType) => ({ description: 'OK', body });

type Guard = (deps: AuthApiDeps) => import('express').RequestHandler[];

/** What the operations take from the API's own access checks (declared once, in api.ts). */
export interface MultiFactorAccess {
  signedIn: Guard;
  superAdmin: Guard;
  session: (res: Response) => Authenticated;
  adminId: z.ZodObject<{ id: z.ZodUUID }>;
  unknownAdmin: () => Error;
}

const INVALID = 'Invalid input; `message` names the first problem';
const UNAUTHORIZED = 'Missing, invalid, expired or revoked token';
const FORBIDDEN = 'Not allowed for this admin';
const TOO_MANY = 'Too many code attempts (see Retry-After)';
const stepUpJson = (state: { methods: Array<'password' | 'totp' | 'passkey'>; until: Date | null }) => ({
  methods: state.methods,
  until: state.until?.toISOString() ?? null,
});
/**
 * Second factors of password sign-in: the second step of sign-in, the admin's own authenticator app, and the
 * super admins' policy and reset.
 */
export const multiFactorOperations = ({
  signedIn,
  superAdmin,
  session,
  adminId,
  unknownAdmin,
}: MultiFactorAccess) => ({
  'POST /api/auth/login/mfa': operation({
    tags: ['auth'],
    summary: 'Second step of sign-in: the challenge with an authenticator code or a recovery code',
    body: secondFactorBody,
    responses: {
      200: ok(secondFactorSessionResponse),
      400: INVALID,
      401: 'Wrong or reused code, or the challenge expired',
      429: TOO_MANY,
    },
    async handle({ body, req }, { accounts }) {
      const proof =
        'code' in body
          ? { code: body.code }
          : 'passkey' in body
            ? { passkey: body.passkey }
            : { recoveryCode: body.recoveryCode };
      const signedInNow = await accounts.completeSecondFactor(body.challenge, proof, clientOf(req));
      return {
        token: signedInNow.token.token,
        admin: toAdminJson(signedInNow.admin),
        ...(signedInNow.recoveryCodes ? { recoveryCodes: signedInNow.recoveryCodes } : {}),
      };
    },
  }),
  'POST /api/auth/login/mfa/enrolment': operation({
    tags: ['auth'],
    summary: 'During sign-in, when every admin must have a second factor: a new authenticator app key',
    body: challengeBody,
    responses: {
      200: ok(totpEnrolmentResponse),
      400: INVALID,
      401: 'The challenge expired',
      409: 'Already set up',
    },
    handle: ({ body }, { accounts }) => accounts.beginChallengeEnrolment(body.challenge),
  }),
  'GET /api/auth/mfa': operation({
    tags: ['auth'],
    summary: "The signed-in admin's second factors",
    admin: true,
    before: signedIn,
    responses: { 200: ok(securityStatusResponse), 401: UNAUTHORIZED, 403: FORBIDDEN },
    async handle({ res }, { accounts }) {
      const status = await accounts.securityStatus(session(res).admin);
      return {
        ...status,
        reauthentication: stepUpJson(await accounts.stepUpState(session(res))),
        totp: status.totp ? { enabledAt: status.totp.enabledAt.toISOString() } : null,
        passkeys: status.passkeys.map(passkeyJsonOf),
      };
    },
  }),
  'POST /api/auth/mfa/totp': operation({
    tags: ['auth'],
    summary: 'Start setting up an authenticator app: its key, as text and as a QR code',
    admin: true,
    before: signedIn,
    responses: { 200: ok(totpEnrolmentResponse), 401: UNAUTHORIZED, 403: NEEDS_PROOF, 409: 'Already set up' },
    handle: ({ res }, { accounts }) => accounts.beginTotpEnrolment(session(res)),
  }),
  'POST /api/auth/mfa/totp/confirm': operation({
    tags: ['auth'],
    summary: 'Confirm the authenticator app with a first code; answers the ten recovery codes, shown once',
    admin: true,
    before: signedIn,
    body: codeBody,
    responses: {
      200: ok(recoveryCodesResponse),
      400: INVALID,
      401: UNAUTHORIZED,
      403: NEEDS_PROOF,
      409: 'Already set up',
      429: TOO_MANY,
    },
    async handle({ body, req, res }, { accounts }) {
      const recoveryCodes = await accounts.confirmTotpEnrolment(session(res), body.code, req.ip ?? 'unknown');
      return { recoveryCodes };
    },
  }),
  'POST /api/auth/mfa/totp/disable': operation({
    tags: ['auth'],
    summary: 'Turn the authenticator app off, with a current code (not while the policy requires it)',
    admin: true,
    before: signedIn,
    body: codeBody,
    responses: {
      204: { description: 'Turned off' },
      400: INVALID,
      401: UNAUTHORIZED,
      403: 'Required for every admin',
      409: 'Not set up',
      429: TOO_MANY,
    },
    async handle({ body, req, res }, { accounts }) {
      await accounts.disableTotp(session(res).admin, body.code, req.ip ?? 'unknown');
      res.status(204).end();
    },
  }),
  'GET /api/admin/security-settings': operation({
    tags: ['admins'],
    summary: 'The security policy (super admin)',
    admin: true,
    before: superAdmin,
    responses: { 200: ok(securitySettingsResponse), 401: UNAUTHORIZED, 403: FORBIDDEN },
    handle: (_input, { accounts }) => accounts.securitySettings(),
  }),
  'PUT /api/admin/security-settings': operation({
    tags: ['admins'],
    summary: 'Require a second factor of every admin, or not (super admin)',
    admin: true,
    before: superAdmin,
    body: mfaRequiredBody,
    responses: { 200: ok(securitySettingsResponse), 400: INVALID, 401: UNAUTHORIZED, 403: FORBIDDEN },
    handle: ({ body, res }, { accounts }) => accounts.setMfaRequired(session(res).admin, body.mfaRequired),
  }),
  'POST /api/admin/admins/{id}/reset-mfa': operation({
    tags: ['admins'],
    summary: "Remove an admin's second factors and recovery codes (super admin)",
    admin: true,
    before: superAdmin,
    params: adminId,
    invalidParams: unknownAdmin,
    responses: { 200: ok(adminResponse), 401: UNAUTHORIZED, 403: NEEDS_PROOF, 404: 'Admin not found' },
    async handle({ params, res }, { accounts }) {
      return { admin: toAdminJson(await accounts.resetFactors(session(res), params.id)) };
    },
  }),
  'POST /api/auth/mfa/recovery-codes': operation({
    tags: ['auth'],
    summary: 'Ten new recovery codes in place of the old ones, shown once (needs a fresh proof)',
    admin: true,
    before: signedIn,
    responses: {
      200: ok(recoveryCodesResponse),
      401: UNAUTHORIZED,
      403: NEEDS_PROOF,
      409: 'No second factor is set up',
    },
    handle: async ({ res }, { accounts }) => ({
      recoveryCodes: await accounts.replaceRecoveryCodes(session(res)),
    }),
  }),
  'POST /api/auth/reauthenticate': operation({
    tags: ['auth'],
    summary:
      'Prove it is you again (password, authenticator code or passkey): for STEP_UP_MINUTES this session may change factors',
    admin: true,
    before: signedIn,
    body: stepUpBody,
    responses: {
      200: ok(stepUpResponse),
      400: 'Invalid input, or a wrong password, code or passkey',
      401: UNAUTHORIZED,
      403: 'Not allowed for this admin, or password sign-in is off for them',
      429: 'Too many password or code attempts (see Retry-After)',
    },
    async handle({ body, req, res }, { accounts }) {
      return stepUpJson(await accounts.reauthenticate(session(res), body, req.ip ?? 'unknown'));
    },
  }),
});
