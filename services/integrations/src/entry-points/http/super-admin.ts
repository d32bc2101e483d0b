import { adminClaims, assertAdminAccess } from '@readiness/kit/auth';
import type { Response } from 'express';

/**
 * LMS connections and webhooks are a super admin's: the runtime's guard let an admin in, this keeps the others out.
 */
export function superAdminId(res: Response): string {
  const claims = adminClaims(res);
  assertAdminAccess({ role: claims.role, mustChangePassword: false }, { superAdmin: true });
  return claims.sub;
}
