import { AppError } from '@readiness/kit/errors';
import { sendErrorPage } from '@readiness/kit/http';
import { operationsFor } from '@readiness/kit/openapi';
import express, { type Request, type Response } from 'express';
import { z } from 'zod';
import { acceptLaunch, LAUNCH_REFUSED_TITLE } from '../../domain/accept-launch';
import type { IntegrationsDeps } from '../../domain/context';
import { linkRoster } from '../../data-access/scores-repository';
import { instructorPage } from './instructor-page';
import { startLogin, stateCookieName } from '../../domain/start-login';

const TAG = 'LTI';

const param = z.string().max(4096);
const loginParams = z.object({
  iss: param.min(1),
  login_hint: param.min(1),
  target_link_uri: param.min(1),
  client_id: param.min(1).optional(),
  lti_deployment_id: param.min(1).optional(),
  lti_message_hint: param.optional(),
});

const launchForm = z.object({ id_token: z.string().min(1).max(65_536), state: z.string().min(1).max(200) });

/** Form bodies (`application/x-www-form-urlencoded`), as an LMS posts them. */
const formBody = () => [express.urlencoded({ extended: false, limit: '80kb' })];

const missing = (what: string) =>
  new AppError(
    'invalid_launch',
    `The LMS sent an incomplete request (${what}). Open the activity from your course again.`,
    400,
  );

/** A request's fields, from its form body (POST) or its query (GET), checked against `schema`. */
function fieldsOf<S extends z.ZodObject>(req: Request, schema: S, what: string): z.infer<S> {
  const source: unknown = req.method === 'POST' ? req.body : req.query;
  const parsed = schema.safeParse(source ?? {});
  if (!parsed.success) throw missing(`${what}: ${parsed.error.issues[0]?.path.join('.') ?? ''}`);
  return parsed.data;
}

function cookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return decodeURIComponent(part.slice(at + 1).trim());
  }
  return undefined;
}

/**
 * Binds the state to this browser. Inside an LMS's iframe the launch is a cross-site POST: the cookie goes with it
 * only as `SameSite=None; Secure`, which needs https; over plain http (a developer's machine) it is `Lax`.
 */
function setStateCookie(res: Response, publicOrigin: string, state: string, binding: string, maxAge: number) {
  const secure = new URL(publicOrigin).protocol === 'https:';
  res.append(
    'Set-Cookie',
    `${stateCookieName(state)}=${binding}; Path=/api/lti/launch; Max-Age=${maxAge}; HttpOnly; ${
      secure ? 'SameSite=None; Secure' : 'SameSite=Lax'
    }`,
  );
}

const clearStateCookie = (res: Response, state: string) =>
  res.append('Set-Cookie', `${stateCookieName(state)}=; Path=/api/lti/launch; Max-Age=0; HttpOnly`);

/** The launch's pages are opened by a person's browser, inside the LMS: refusals are pages too. */
function refusedPage(res: Response, err: unknown, deps: IntegrationsDeps) {
  sendErrorPage(res, err, LAUNCH_REFUSED_TITLE, (e) => deps.logger.error({ err: e }, 'an LTI launch failed'));
}

const operation = operationsFor<IntegrationsDeps>();

const login = (method: 'GET' | 'POST') =>
  operation({
    summary: `LTI 1.3 login initiation (${method === 'GET' ? 'query' : 'form'}): keeps a state and nonce, sends the browser to the LMS`,
    tags: [TAG],
    before: () => (method === 'POST' ? formBody() : []),
    responses: {
      302: { description: "To the LMS's authorization URL, with the state cookie set" },
      400: {
        description: 'Unknown LMS or deployment, a target on another site, a field missing: an HTML page',
      },
      403: { description: 'The LMS connection is disabled: an HTML page' },
    },
    async handle({ req, res }, deps) {
      try {
        const found = await startLogin(deps, fieldsOf(req, loginParams, 'login'));
        setStateCookie(res, deps.publicOrigin, found.state, found.binding, found.maxAgeSeconds);
        res.redirect(302, found.redirectTo);
      } catch (err) {
        refusedPage(res, err, deps);
      }
    },
  });

export const launchOperations = {
  'GET /api/lti/login': login('GET'),
  'POST /api/lti/login': login('POST'),
  'POST /api/lti/launch': operation({
    summary:
      "LTI 1.3 launch: the LMS's id_token checked, a learner sent on to their own assessment page, an instructor shown the activity's learners",
    tags: [TAG],
    before: formBody,
    responses: {
      200: {
        description: "An instructor's launch: the read-only page of the activity's learners and results",
      },
      303: { description: 'A learner: to the student service with a sealed, single-use launch ticket' },
      400: {
        description: 'Expired or used state, unknown deployment, wrong version or message: an HTML page',
      },
      401: {
        description: 'An id_token that does not verify (key, issuer, audience, times, nonce): an HTML page',
      },
      403: {
        description: 'Another browser, a disabled connection, neither learner nor instructor: an HTML page',
      },
    },
    async handle({ req, res }, deps) {
      try {
        const form = fieldsOf(req, launchForm, 'launch');
        const outcome = await acceptLaunch(deps, {
          idToken: form.id_token,
          state: form.state,
          binding: cookie(req, stateCookieName(form.state)),
        });
        clearStateCookie(res, form.state);
        res.setHeader('Referrer-Policy', 'no-referrer');
        if (outcome.instructor) {
          const { platformId, resourceLinkId, title } = outcome.instructor;
          const roster = await linkRoster(deps.database.db, platformId, resourceLinkId);
          res.setHeader('Cache-Control', 'no-store');
          res.status(200).type('html').send(instructorPage(title, roster));
          return;
        }
        res.redirect(303, outcome.redirectTo);
      } catch (err) {
        refusedPage(res, err, deps);
      }
    },
  }),
};
