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
export { adminClaims, requireAdminToken, type RequireAdminTokenOptions } from './middleware';
