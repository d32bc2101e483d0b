export {
  bearerToken,
  createJwtVerifier,
  invalidToken,
  type AdminTokenClaims,
  type JwtVerifier,
  type JwtVerifierOptions,
  type PublicKeyInput,
} from './jwt-verifier';
export {
  SUPER_ADMIN_ROLE,
  adminClaims,
  adminGuard,
  assertAdminAccess,
  requireAdminToken,
  superAdminId,
  type AdminAccess,
  type AdminGuardOptions,
  type RequireAdminTokenOptions,
} from './middleware';
export {
  assertSessionAllowed,
  sessionRulesOf,
  signInWithoutProviderAllowed,
  type PasswordSignIn,
  type SessionRules,
  type SignInMethod,
} from './session-rules';
export { loadSigningKeys, type PublicJwk, type SigningKeys } from './signing-keys';
