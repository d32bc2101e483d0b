import { operationsFor } from '@readiness/kit/openapi';
import type { Request, Response } from 'express';
import { SSO_COOKIE_PATH, type AuthApiDeps } from './deps';
import { clientOf, toAdminJson } from './views';
import { signInOptionsResponse, ssoSessionResponse, startSignInQuery } from './schemas';

const operation = operationsFor<AuthApiDeps>();

const SSO_COOKIE = 'readiness_sso';
const LOGIN_PAGE = '/admin/login';

/** The sign-in cookie's value (random base64url, so no decoding); the first one when a browser sends two. */
const bindingOf = (req: Request): string | undefined =>
  req.headers.cookie
    ?.split(';')
    .map((pair) => pair.trim())
    .find((pair) => pair.startsWith(`${SSO_COOKIE}=`))
    ?.slice(SSO_COOKIE.length + 1) || undefined;

function setBinding(res: Response, deps: AuthApiDeps, binding: string): void {
  res.cookie(SSO_COOKIE, binding, {
    httpOnly: true,
    // Lax: the provider's redirect back is a top-level navigation, which carries it; a cross-site POST does not.
    sameSite: 'lax',
    secure: deps.publicOrigin.startsWith('https:'),
    path: SSO_COOKIE_PATH,
    maxAge: 600_000,
  });
}

const clearBinding = (res: Response, deps: AuthApiDeps) =>
  res.clearCookie(SSO_COOKIE, { path: SSO_COOKIE_PATH, secure: deps.publicOrigin.startsWith('https:') });

const loginPage = (deps: AuthApiDeps, query: Record<string, string>) =>
  `${deps.publicOrigin.replace(/\/+$/, '')}${LOGIN_PAGE}?${new URLSearchParams(query)}`;

/** Single sign-on with the institution's OpenID Provider: the browser's round trip, then the web app's session. */
export const singleSignOnOperations = {
  'GET /api/auth/sign-in-options': operation({
    tags: ['auth'],
    summary:
      'How admins may sign in: the institution’s provider (when configured) and who may use a password',
    responses: { 200: { description: 'OK', body: signInOptionsResponse } },
    handle: (_input, { accounts }) => accounts.signInOptions(),
  }),
  'GET /api/auth/oidc/start': operation({
    tags: ['auth'],
    summary: 'Begin signing in with the institution’s provider: a redirect there (a browser navigation)',
    query: startSignInQuery,
    responses: {
      302: 'To the provider; or to the login page when the provider cannot be reached',
      400: 'Invalid input',
      404: 'Single sign-on is not configured',
    },
    async handle({ query, res }, deps) {
      const begun = await deps.accounts.beginSignIn(query.returnTo).catch((err: unknown) => {
        if ((err as { code?: string }).code === 'sso_unavailable') return undefined;
        throw err;
      });
      if (!begun) {
        res.redirect(302, loginPage(deps, { sso_error: 'unavailable' }));
        return;
      }
      setBinding(res, deps, begun.binding);
      res.setHeader('Cache-Control', 'no-store');
      res.redirect(302, begun.url);
    },
  }),
  'GET /api/auth/oidc/callback': operation({
    tags: ['auth'],
    summary: 'Where the provider sends the browser back (the redirect URI registered with it)',
    responses: { 302: 'To the login page, which takes the session or says why there is none' },
    async handle({ req, res }, deps) {
      const callbackUrl = new URL(deps.redirectUri);
      callbackUrl.search = new URL(req.originalUrl, 'http://callback').search;
      const outcome = await deps.accounts.completeSignIn(bindingOf(req), callbackUrl, clientOf(req).address);
      res.setHeader('Cache-Control', 'no-store');
      // A refusal leaves the cookie alone: a forged callback must not end the browser's own sign-in in progress.
      if ('refused' in outcome) {
        res.redirect(302, loginPage(deps, { sso_error: outcome.refused }));
        return;
      }
      res.redirect(302, loginPage(deps, { sso: 'signed-in' }));
    },
  }),
  'POST /api/auth/oidc/session': operation({
    tags: ['auth'],
    summary: 'Take the session a completed sign-in prepared for this browser (once)',
    responses: {
      200: { description: 'Signed in', body: ssoSessionResponse },
      401: 'No completed sign-in for this browser (none, expired or already taken)',
      404: 'Single sign-on is not configured',
    },
    async handle({ req, res }, deps) {
      const binding = bindingOf(req);
      clearBinding(res, deps);
      const taken = await deps.accounts.takeSignInSession(
        binding,
        `${deps.publicOrigin.replace(/\/+$/, '')}${LOGIN_PAGE}`,
        clientOf(req),
      );
      return {
        token: taken.token.token,
        admin: toAdminJson(taken.admin),
        returnTo: taken.returnTo,
        ...(taken.endSessionUrl ? { endSessionUrl: taken.endSessionUrl } : {}),
      };
    },
  }),
};
