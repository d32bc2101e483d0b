import { AppError } from '@readiness/kit/errors';
import { operationsFor } from '@readiness/kit/openapi';
import express, { type Request, type Response } from 'express';
import { z } from 'zod';
import { acceptLaunch, LAUNCH_REFUSED_TITLE } from '../../domain/accept-launch';
import { LOOPBACK_HOSTS, type IntegrationsDeps } from '../../domain/context';
import { linkRoster } from '../../data-access/scores-repository';
import { answerDeepLinking, DEEP_LINKING_REFUSED_TITLE } from '../../domain/deep-linking';
import { instructorPage } from './instructor-page';
import { startLogin, stateCookieName } from '../../domain/start-login';
import { DEEP_LINKING_PATH, sendAnswerPage, sendConfirmationPage } from './deep-linking';
import { sendLtiRefusal, setLtiPagePolicy } from './lti-pages';
import { framingOrigins } from '../../domain/framing-origins';

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
const deepLinkingForm = z.object({ request: z.string().min(1).max(200), choice: z.enum(['add', 'cancel']) });

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
 * The state cookie's attributes. Inside an LMS's iframe the launch is a cross-site POST: the cookie goes with it only
 * as `SameSite=None; Secure`, and a browser that blocks third-party cookies keeps it only `Partitioned` (CHIPS: kept
 * for the LMS's site alone, which is where the launch comes back). Browsers keep `Secure` cookies over plain http on
 * loopback too; elsewhere over plain http it is refused, so the cookie is `Lax` there: a launch in a new window.
 */
function stateCookieAttributes(publicOrigin: string): string {
  const url = new URL(publicOrigin);
  const secure = url.protocol === 'https:' || LOOPBACK_HOSTS.has(url.hostname);
  return `Path=/api/lti/launch; HttpOnly; ${secure ? 'SameSite=None; Secure; Partitioned' : 'SameSite=Lax'}`;
}

/** Binds the state to this browser. */
function setStateCookie(res: Response, publicOrigin: string, state: string, binding: string, maxAge: number) {
  res.append(
    'Set-Cookie',
    `${stateCookieName(state)}=${binding}; Max-Age=${maxAge}; ${stateCookieAttributes(publicOrigin)}`,
  );
}

const clearStateCookie = (res: Response, publicOrigin: string, state: string) =>
  res.append('Set-Cookie', `${stateCookieName(state)}=; Max-Age=0; ${stateCookieAttributes(publicOrigin)}`);

/** The launch's pages are opened by a person's browser, inside the LMS: refusals are pages too. */
const refusedPage = (res: Response, err: unknown, deps: IntegrationsDeps) =>
  sendLtiRefusal(res, err, LAUNCH_REFUSED_TITLE, deps);

/**
 * Login initiations per client address: each keeps a row until it lapses, and the route is public. A classroom
 * behind one address launches together, so the limit is per minute and generous (`LTI_LOGIN_RATE_LIMIT`).
 */
async function checkLoginRate(req: Request, res: Response, deps: IntegrationsDeps) {
  const decision = await deps.loginLimit.consume(req.ip ?? 'unknown');
  if (decision.allowed) return;
  res.setHeader('Retry-After', String(decision.retryAfterSeconds));
  throw new AppError(
    'rate_limited',
    'Too many launches from your network just now. Wait a minute, then open the activity again.',
    429,
  );
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
      429: { description: 'Too many login initiations from this address this minute: an HTML page' },
    },
    async handle({ req, res }, deps) {
      try {
        await checkLoginRate(req, res, deps);
        const found = await startLogin(deps, fieldsOf(req, loginParams, 'login'));
        setStateCookie(res, deps.publicOrigin, found.state, found.binding, found.maxAgeSeconds);
        res.redirect(302, found.redirectTo);
      } catch (err) {
        await refusedPage(res, err, deps);
      }
    },
  });

export const launchOperations = {
  'GET /api/lti/login': login('GET'),
  'POST /api/lti/login': login('POST'),
  'POST /api/lti/launch': operation({
    summary:
      "LTI 1.3 launch: the LMS's id_token checked, a learner sent on to their own assessment page, an instructor shown the activity's learners, an instructor's deep-linking request shown for confirmation",
    tags: [TAG],
    before: formBody,
    responses: {
      200: {
        description:
          "An instructor's launch: the read-only page of the activity's learners and results; a deep-linking request: the page that asks the instructor to confirm",
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
        clearStateCookie(res, deps.publicOrigin, form.state);
        res.setHeader('Referrer-Policy', 'no-referrer');
        if (outcome.deepLinking) {
          await sendConfirmationPage(res, deps, outcome.deepLinking);
        } else if (outcome.instructor) {
          const { platformId, resourceLinkId, title } = outcome.instructor;
          const roster = await linkRoster(deps.database.db, platformId, resourceLinkId);
          res.setHeader('Cache-Control', 'no-store');
          // Shown inside the LMS's iframe, as the other LTI pages: framed by the registered LMSs only.
          setLtiPagePolicy(res, await framingOrigins(deps));
          res.status(200).type('html').send(instructorPage(title, roster));
        } else {
          res.redirect(303, outcome.redirectTo);
        }
      } catch (err) {
        await refusedPage(res, err, deps);
      }
    },
  }),
  [`POST ${DEEP_LINKING_PATH}`]: operation({
    summary:
      "LTI 1.3 deep linking, the instructor's choice: answered with the signed LtiDeepLinkingResponse, posted to the LMS",
    tags: [TAG],
    before: formBody,
    responses: {
      200: {
        description: 'The page that posts the signed answer to the LMS (a button where scripts do not run)',
      },
      400: { description: 'A request unknown, expired or answered already: an HTML page' },
      403: { description: 'The LMS connection is disabled: an HTML page' },
    },
    async handle({ req, res }, deps) {
      try {
        const form = fieldsOf(req, deepLinkingForm, 'deep linking');
        const answer = await answerDeepLinking(deps, { requestId: form.request, add: form.choice === 'add' });
        await sendAnswerPage(res, deps, answer);
      } catch (err) {
        await sendLtiRefusal(res, err, DEEP_LINKING_REFUSED_TITLE, deps);
      }
    },
  }),
};
