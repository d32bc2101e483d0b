import type { ApiAnswer, ApiBody } from '../../../lib/api-types';
import type { AdminTranslate } from '../../../i18n/admin/admin-i18n';

/** An admin account as the auth service answers it (`GET /api/auth/me`, and every admin call). */
export type MeAnswer = ApiAnswer<'/api/auth/me', 'get'>;
export type Admin = MeAnswer['admin'];
export type AdminRole = Admin['role'];
export type AdminStatus = Admin['status'];

/** A signed-in session: a sign-in's answer (password, second factor, single sign-on) and a password change's. */
export type SessionResponse = ApiAnswer<'/api/auth/change-password', 'post'>;
export type ChangePasswordBody = ApiBody<'/api/auth/change-password', 'post'>;
export type ChangePasswordAnswer = ApiAnswer<'/api/auth/change-password', 'post'>;

/** How admins may sign in (`GET /api/auth/sign-in-options`). */
export type SignInOptions = ApiAnswer<'/api/auth/sign-in-options', 'get'>;
/** The session a completed single sign-on prepared for this browser (`POST /api/auth/oidc/session`). */
export type SsoSession = ApiAnswer<'/api/auth/oidc/session', 'post'>;

/** A role's name on screen, in the admin's language. */
export const roleLabel = (role: AdminRole, t: AdminTranslate): string =>
  role === 'super_admin' ? t('auth.role.superAdmin') : t('auth.role.admin');
