export {
  ADMIN_TOKEN_ALGORITHM,
  EXPIRED_TOKEN_MESSAGE,
  INVALID_TOKEN_MESSAGE,
  bearerToken,
  createJwtVerifier,
  invalidToken,
  type AdminTokenClaims,
  type JwtVerifier,
  type JwtVerifierOptions,
  type PublicKeyInput,
} from './jwt-verifier';
export {
  PASSWORD_CHANGE_REQUIRED_MESSAGE,
  SUPER_ADMIN_ROLE,
  adminClaims,
  adminGuard,
  assertAdminAccess,
  passwordChangeRequired,
  requireAdminToken,
  type AdminAccess,
  type AdminGuardOptions,
  type RequireAdminTokenOptions,
} from './middleware';
export {
  SESSION_MAX_AGE_MESSAGE,
  SIGN_IN_METHOD_OFF_MESSAGE,
  assertSessionAllowed,
  sessionRulesOf,
  signInWithoutProviderAllowed,
  type PasswordSignIn,
  type SessionRules,
  type SignInMethod,
} from './session-rules';
