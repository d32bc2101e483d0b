import { htmlPage } from '@readiness/kit/http';
import { escapeHtml } from '@readiness/kit/i18n';
import { operationsFor } from '@readiness/kit/openapi';
import { z } from 'zod';
import type { IntegrationsDeps } from '../../domain/context';
import {
  createRegistrationLink,
  registerDynamically,
  REGISTRATION_REFUSED_TITLE,
} from '../../domain/dynamic-registration';
import { framingOrigins } from '../../domain/framing-origins';
import { sendLtiRefusal, scriptNonce, setLtiPagePolicy } from './lti-pages';
import { superAdminId } from './super-admin';

const operation = operationsFor<IntegrationsDeps>();

const registerQuery = z.object({
  link: z.string().max(200).default(''),
  openid_configuration: z.string().max(2048).default(''),
  registration_token: z.string().max(4096).optional(),
});

/** LTI Dynamic Registration: the super admin's one-time link, and the page the LMS opens with it. */
export const registrationOperations = {
  'POST /api/admin/lti/registration-links': operation({
    summary:
      'A one-time link (an hour) to paste into an LMS that registers tools dynamically (LTI Dynamic Registration)',
    tags: ['LMS connections'],
    admin: true,
    responses: {
      201: {
        description: 'The link; only its hash is kept',
        body: z.object({ url: z.string(), expiresAt: z.string() }),
      },
      401: 'Not signed in',
      403: 'Not a super admin',
    },
    async handle({ res }, deps) {
      const link = await createRegistrationLink(deps, superAdminId(res));
      return { url: link.url, expiresAt: link.expiresAt.toISOString() };
    },
  }),
  'GET /api/lti/register': operation({
    summary:
      'LTI Dynamic Registration: the LMS opens the one-time link with its OpenID configuration; Readiness registers there and keeps the connection',
    tags: ['LTI'],
    query: registerQuery,
    responses: {
      200: { description: 'Connected: a page that tells the LMS to close it (org.imsglobal.lti.close)' },
      400: { description: 'A link expired or used, a configuration that is not the LMS’s own: an HTML page' },
      502: { description: 'The LMS did not answer or refused the registration: an HTML page' },
    },
    async handle({ query, res }, deps) {
      try {
        const platform = await registerDynamically(deps, {
          link: query.link,
          openidConfiguration: query.openid_configuration,
          registrationToken: query.registration_token,
        });
        const nonce = scriptNonce();
        setLtiPagePolicy(res, await framingOrigins(deps, [new URL(query.openid_configuration).origin]), {
          scriptNonce: nonce,
        });
        res.setHeader('Cache-Control', 'no-store');
        res
          .status(200)
          .type('html')
          .send(
            htmlPage(
              'Readiness is connected',
              `<p>Readiness is now connected to <strong>${escapeHtml(platform.name)}</strong>. You can close this window; ` +
                'the connection shows on the LMS connections screen of Readiness.</p>' +
                `<script nonce="${nonce}">(window.opener || window.parent).postMessage({ subject: 'org.imsglobal.lti.close' }, '*');</script>`,
            ),
          );
      } catch (err) {
        await sendLtiRefusal(res, err, REGISTRATION_REFUSED_TITLE, deps);
      }
    },
  }),
};
