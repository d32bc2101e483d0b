import { emailField, personNameField, textField } from '@readiness/kit/http';
import { z } from 'zod';
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from '../../domain/common-passwords';
import { MAX_PASSWORD_BYTES, MIN_PASSWORD_LENGTH, passwordBytes } from '../../domain/passwords';

export { emailField };

const passwordField = (requiredMessage: string) =>
  textField({ label: 'Password', requiredMessage })
    .min(1, requiredMessage)
    .min(MIN_PASSWORD_LENGTH, 'Password must be at least 6 characters')
    .refine((v) => passwordBytes(v) <= MAX_PASSWORD_BYTES, 'Password must be at most 72 bytes');

/** A password being set (created or changed), as opposed to one being checked at login. */
const newPasswordField = (requiredMessage: string) =>
  passwordField(requiredMessage).refine((v) => !isCommonPassword(v), COMMON_PASSWORD_MESSAGE);

export const nameField = personNameField;

export const roleField = z.enum(['admin', 'super_admin'], { error: 'Role is required' });
const statusField = z.enum(['active', 'disabled'], { error: "Status must be 'active' or 'disabled'" });

const body = <T extends z.ZodRawShape>(shape: T) =>
  z.object(shape, { error: 'Request body must be a JSON object' });

export const loginBody = body({ email: emailField, password: passwordField('Password is required') });
export const changePasswordBody = body({
  currentPassword: textField({ label: 'Password', requiredMessage: 'Current password is required' }).min(
    1,
    'Current password is required',
  ),
  newPassword: newPasswordField('New password is required'),
});
export const createAdminBody = body({
  name: nameField,
  email: emailField,
  password: newPasswordField('Password is required'),
  role: roleField,
});
export const updateAdminBody = body({ name: nameField, email: emailField, role: roleField });
export const statusBody = body({ status: statusField });
const auditFilters = {
  before: z.iso.datetime({ offset: true, error: 'before must be an ISO date-time' }).optional(),
  from: z.iso.datetime({ offset: true, error: 'from must be an ISO date-time' }).optional(),
  to: z.iso.datetime({ offset: true, error: 'to must be an ISO date-time' }).optional(),
  actor: z.uuid({ error: 'actor must be an admin id' }).optional(),
  action: z
    .string()
    .regex(/^[a-z]+(?:[.-][a-z]+)*$/, 'action must be an action name such as admin.signed-in')
    .max(60, 'action must be an action name such as admin.signed-in')
    .optional(),
  q: textField({ label: 'Search' }).trim().max(100, 'Search must be at most 100 characters').optional(),
};
export const auditQuery = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be between 1 and 200')
    .max(200, 'limit must be between 1 and 200')
    .default(50),
  ...auditFilters,
});
export const auditExportQuery = z.object(auditFilters);

const adminJson = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.enum(['admin', 'super_admin']),
  status: z.enum(['active', 'disabled']),
  lastLogin: z.string().nullable(),
  createdAt: z.string(),
  mustChangePassword: z.boolean(),
  /** Has a second factor; a super admin may reset it. */
  mfaEnabled: z.boolean(),
});
const personJson = z.object({ _id: z.string(), name: z.string(), email: z.string() });
const auditEntryJson = z.object({
  _id: z.string(),
  actor: personJson.nullable(),
  action: z.string(),
  target: personJson.nullable(),
  details: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});

export const sessionResponse = z.object({ token: z.string(), admin: adminJson });
export const adminResponse = z.object({ admin: adminJson });
export const adminsResponse = z.object({ admins: z.array(adminJson) });
export const tokenResponse = z.object({ token: z.string() });
export const resetPasswordResponse = z.object({ message: z.string(), admin: adminJson });
export const auditResponse = z.object({ entries: z.array(auditEntryJson) });
export const jwksResponse = z.object({
  keys: z.array(
    z.object({
      kty: z.string(),
      n: z.string(),
      e: z.string(),
      kid: z.string(),
      use: z.string(),
      alg: z.string(),
    }),
  ),
});

export const signInOptionsResponse = z.object({
  /** The institution's provider when single sign-on is configured. */
  singleSignOn: z.object({ name: z.string() }).nullable(),
  /** Who may sign in with a password: everyone, or only super admins (`OIDC_ALLOW_PASSWORD=false`). */
  passwordSignIn: z.enum(['everyone', 'super-admins']),
});
export const startSignInQuery = z.object({
  returnTo: z.string().max(2000, 'returnTo must be at most 2000 characters').optional(),
});
export const ssoSessionResponse = sessionResponse.extend({
  /** The in-app page the admin was going to. */
  returnTo: z.string(),
  /** The provider's end-session URL, offered after signing out of Readiness. */
  endSessionUrl: z.string().optional(),
});

const ownSessionJson = z.object({
  _id: z.string(),
  /** From the session's User-Agent, as people name them ('Chrome'); null when it names none we know. */
  browser: z.string().nullable(),
  os: z.string().nullable(),
  /** The address the session signed in from. */
  address: z.string(),
  signedInAt: z.string(),
  lastSeenAt: z.string(),
  /** The session that asks. */
  current: z.boolean(),
});
export const ownSessionsResponse = z.object({ sessions: z.array(ownSessionJson) });
/** What the password step answers, instead of a session, for an admin who has or must set up a second factor. */
const secondFactorStepResponse = z.object({
  mfaRequired: z.literal(true),
  /** Opaque and short-lived: sent back with the code. */
  challenge: z.string(),
  /** True: the admin sets up an authenticator app first (every admin must have one). */
  enrol: z.boolean(),
  /** What the admin may answer with: a code of their authenticator app, a passkey (recovery codes with either). */
  methods: z.array(z.enum(['totp', 'passkey'])),
});
export const loginResponse = z.union([sessionResponse, secondFactorStepResponse]);

const challengeField = textField({ label: 'Challenge', requiredMessage: 'Challenge is required' })
  .min(1, 'Challenge is required')
  .max(100, 'Challenge is not valid');
const codeField = z
  .string({ error: 'Code is required' })
  .trim()
  .regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app');
const recoveryCodeField = textField({ label: 'Recovery code', requiredMessage: 'Recovery code is required' })
  .trim()
  .min(1, 'Recovery code is required')
  .max(40, 'Recovery code is not valid');

/** Base64url text of a WebAuthn answer, bounded: an answer is a few hundred bytes, an attestation a few KB. */
const base64url = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .max(max, `${label} is too long`)
    .regex(/^[A-Za-z0-9_-]*$/, `${label} must be base64url`);

const credentialFields = {
  id: base64url('Credential id', 1_400).min(1, 'Credential id is required'),
  rawId: base64url('Credential id', 1_400).min(1, 'Credential id is required'),
  type: z.literal('public-key', { error: "Credential type must be 'public-key'" }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
};

/** What `navigator.credentials.get()` answered, as @simplewebauthn/browser sends it. */
const passkeyAnswerField = z.object(
  {
    ...credentialFields,
    response: z.object(
      {
        clientDataJSON: base64url('clientDataJSON', 4_000),
        authenticatorData: base64url('authenticatorData', 4_000),
        signature: base64url('Signature', 2_000),
        userHandle: base64url('User handle', 200).optional(),
      },
      { error: 'The passkey answer is incomplete' },
    ),
  },
  { error: 'Send the passkey answer' },
);

/** What `navigator.credentials.create()` answered, as @simplewebauthn/browser sends it. */
const passkeyRegistrationField = z.object(
  {
    ...credentialFields,
    response: z.object(
      {
        clientDataJSON: base64url('clientDataJSON', 4_000),
        attestationObject: base64url('attestationObject', 40_000),
        transports: z.array(z.string().max(20)).max(10).optional(),
        publicKeyAlgorithm: z.number().int().optional(),
        publicKey: base64url('Public key', 4_000).optional(),
        authenticatorData: base64url('authenticatorData', 40_000).optional(),
      },
      { error: 'The passkey answer is incomplete' },
    ),
  },
  { error: 'Send the new passkey' },
);

export const secondFactorBody = z.union(
  [
    body({ challenge: challengeField, code: codeField }),
    body({ challenge: challengeField, recoveryCode: recoveryCodeField }),
    body({ challenge: challengeField, passkey: passkeyAnswerField }),
  ],
  { error: 'Send the challenge with a code, a recovery code or a passkey' },
);
export const passkeySignInBody = body({ passkey: passkeyAnswerField });
export const addPasskeyBody = body({
  name: textField({ label: 'Name', requiredMessage: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(60, 'Name must be at most 60 characters'),
  passkey: passkeyRegistrationField,
});
/** The options handed to `navigator.credentials.create()` or `.get()`, as JSON (WebAuthn Level 3). */
export const passkeyOptionsResponse = z.object({ options: z.record(z.string(), z.unknown()) });
const passkeyJson = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  /** Synced between the person's devices by its provider. */
  synced: z.boolean(),
});
export const addPasskeyResponse = z.object({
  passkey: passkeyJson,
  /** Only when this passkey is the admin's first second factor: shown once. */
  recoveryCodes: z.array(z.string()).optional(),
});
export const challengeBody = body({ challenge: challengeField });
export const codeBody = body({ code: codeField });
export const mfaRequiredBody = body({
  mfaRequired: z.boolean({ error: 'mfaRequired must be true or false' }),
});

export const secondFactorSessionResponse = sessionResponse.extend({
  /** Only when the admin set up their authenticator app in this sign-in: shown once. */
  recoveryCodes: z.array(z.string()).optional(),
});
export const totpEnrolmentResponse = z.object({
  secret: z.string(),
  otpauthUrl: z.string(),
  qrCode: z.string(),
});
export const recoveryCodesResponse = z.object({ recoveryCodes: z.array(z.string()) });
/** A fresh proof of the person, asked before any change of a factor: the password, a code or a passkey's answer. */
export const stepUpBody = z.union(
  [
    body({ password: passwordField('Password is required') }),
    body({ code: codeField }),
    body({ passkey: passkeyAnswerField }),
  ],
  { error: 'Send your password, a code from your authenticator app or a passkey' },
);
export const stepUpResponse = z.object({
  /** How this admin can prove it is them again. */
  methods: z.array(z.enum(['password', 'totp', 'passkey'])),
  /** Until when this session may change factors without another proof; null: a proof is needed first. */
  until: z.string().nullable(),
});
export const securityStatusResponse = z.object({
  /** The session's fresh proof of the person, which every change of a factor needs. */
  reauthentication: stepUpResponse,
  totp: z.object({ enabledAt: z.string() }).nullable(),
  passkeys: z.array(passkeyJson),
  recoveryCodesLeft: z.number(),
  /** Every admin must have a second factor (the super admins' policy). */
  required: z.boolean(),
});
export const securitySettingsResponse = z.object({ mfaRequired: z.boolean() });
