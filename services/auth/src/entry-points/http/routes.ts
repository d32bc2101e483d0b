import { assertAdminAccess, bearerToken, invalidToken, type AdminAccess } from '@readiness/kit/auth';
import { parse } from '@readiness/kit/http';
import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import type { AdminRecord, AuditEntry } from '../../data-access/admins-repository';
import type { AdminAccounts, Authenticated } from '../../domain/admin-accounts';
import type { SigningKeys } from '../../domain/signing-keys';
import {
  auditQuery,
  changePasswordBody,
  createAdminBody,
  loginBody,
  statusBody,
  updateAdminBody,
} from './schemas';

export function toAdminJson(a: AdminRecord) {
  return {
    _id: a.id,
    name: a.name,
    email: a.email,
    role: a.role,
    status: a.status,
    lastLogin: a.lastLogin ? a.lastLogin.toISOString() : null,
    createdAt: a.createdAt.toISOString(),
    mustChangePassword: a.mustChangePassword,
  };
}

function toAuditJson(e: AuditEntry) {
  const person = (p: AuditEntry['actor']) => (p ? { _id: p.id, name: p.name, email: p.email } : null);
  return {
    _id: e.id,
    actor: person(e.actor),
    action: e.action,
    target: person(e.target),
    details: e.details,
    createdAt: e.createdAt.toISOString(),
  };
}

const session = (res: Response): Authenticated => {
  const auth = (res.locals as { auth?: Authenticated }).auth;
  if (!auth) throw invalidToken();
  return auth;
};

export function mountRoutes(app: Express, deps: { accounts: AdminAccounts; keys: SigningKeys }): void {
  const { accounts, keys } = deps;

  /**
   * Verified, not revoked, active, then the kit's rule for admin routes, applied to the admin's current row
   * (role and pending password change as they are now, not as the token says).
   */
  const authenticated =
    (access: AdminAccess = {}): RequestHandler =>
    (req: Request, res: Response, next: NextFunction) => {
      const token = bearerToken(req.headers.authorization);
      if (!token) {
        next(invalidToken());
        return;
      }
      accounts
        .authenticate(token)
        .then((auth) => {
          assertAdminAccess(auth.admin, access);
          (res.locals as { auth?: Authenticated }).auth = auth;
          next();
        })
        .catch(next);
    };
  const pending = authenticated({ allowPendingPasswordChange: true });
  const signedIn = authenticated();
  const superAdmin = authenticated({ superAdmin: true });

  const jwks: RequestHandler = (_req, res) => {
    // Verifiers cache the keys and re-fetch on an unknown kid; a short max-age keeps rotations quick.
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.json(keys.jwks);
  };
  app.get('/.well-known/jwks.json', jwks);
  app.get('/api/auth/jwks.json', jwks);

  app.post('/api/auth/login', async (req, res) => {
    const { email, password } = parse(loginBody, req.body);
    const { token, admin } = await accounts.login(email, password, req.ip ?? 'unknown');
    res.json({ token: token.token, admin: toAdminJson(admin) });
  });

  app.get('/api/auth/me', pending, (_req, res) => {
    res.json({ admin: toAdminJson(session(res).admin) });
  });

  app.post('/api/auth/logout', pending, async (_req, res) => {
    await accounts.logout(session(res).claims);
    res.status(204).end();
  });

  app.post('/api/auth/refresh', signedIn, (_req, res) => {
    res.json({ token: accounts.refresh(session(res)).token });
  });

  app.post('/api/auth/change-password', pending, async (req, res) => {
    const { currentPassword, newPassword } = parse(changePasswordBody, req.body);
    const { token, admin } = await accounts.changePassword(
      session(res),
      currentPassword,
      newPassword,
      req.ip ?? 'unknown',
    );
    res.json({ token: token.token, admin: toAdminJson(admin) });
  });

  app.get('/api/admin/admins', superAdmin, async (_req, res) => {
    res.json({ admins: (await accounts.listAdmins()).map(toAdminJson) });
  });

  app.post('/api/admin/admins', superAdmin, async (req, res) => {
    const input = parse(createAdminBody, req.body);
    const admin = await accounts.createAdmin(session(res).admin, input);
    res.status(201).json({ admin: toAdminJson(admin) });
  });

  app.put('/api/admin/admins/:id', superAdmin, async (req, res) => {
    const input = parse(updateAdminBody, req.body);
    const admin = await accounts.updateAdmin(session(res).admin, String(req.params.id), input);
    res.json({ admin: toAdminJson(admin) });
  });

  app.post('/api/admin/admins/:id/reset-password', superAdmin, async (req, res) => {
    const admin = await accounts.resetPassword(session(res).admin, String(req.params.id));
    res.json({
      message: `Password reset successfully. A temporary password has been sent to ${admin.email}`,
      admin: toAdminJson(admin),
    });
  });

  app.patch('/api/admin/admins/:id/status', superAdmin, async (req, res) => {
    const { status } = parse(statusBody, req.body);
    const admin = await accounts.setStatus(session(res).admin, String(req.params.id), status);
    res.json({ admin: toAdminJson(admin) });
  });

  app.get('/api/admin/audit-log', superAdmin, async (req, res) => {
    const { limit, before } = parse(auditQuery, req.query);
    const entries = await accounts.auditLog({ limit, before: before ? new Date(before) : undefined });
    res.json({ entries: entries.map(toAuditJson) });
  });
}
