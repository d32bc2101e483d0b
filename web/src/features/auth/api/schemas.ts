import { z } from 'zod';
import { adminT } from '../../../i18n/admin/admin-i18n';

// Kept apart from the endpoints so the session code in the main bundle does not pull in zod.

/**
 * One mailbox as RFC 5321 lets it travel (no quotes, angle brackets, list separators or white space; 64
 * characters before the @, 254 in all): the services' EMAIL_PATTERN (@readiness/kit/http), checked equal by a test.
 */
export const emailPattern =
  /^(?=[^@]{1,64}@)(?=.{3,254}$)[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/** The e-mail rule shared by every admin form (SPEC §5). */
export const emailField = z
  .string()
  .trim()
  .min(1, adminT('auth.form.emailRequired'))
  .regex(emailPattern, adminT('auth.form.emailInvalid'));

export const passwordField = z
  .string()
  .min(1, adminT('auth.form.passwordRequired'))
  .min(6, adminT('auth.form.passwordTooShort'));

export const loginSchema = z.object({ email: emailField, password: passwordField });
export type LoginInput = z.infer<typeof loginSchema>;

export const changePasswordSchema = z
  .object({
    currentPassword: z.string().min(1, adminT('auth.changePassword.currentRequired')),
    newPassword: passwordField,
    confirmPassword: z.string().min(1, adminT('auth.changePassword.confirmRequired')),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    path: ['confirmPassword'],
    message: adminT('auth.changePassword.mismatch'),
  });
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

export const CODE_MESSAGE = adminT('auth.secondFactor.codeHint');
export const codeSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, CODE_MESSAGE),
});
export type CodeInput = z.infer<typeof codeSchema>;
export const recoveryCodeSchema = z.object({
  recoveryCode: z.string().trim().min(1, adminT('auth.secondFactor.recoveryCodeRequired')),
});
export type RecoveryCodeInput = z.infer<typeof recoveryCodeSchema>;
