import { textField } from '@readiness/kit/http';
import { operationsFor, serviceApi } from '@readiness/kit/openapi';
import { z } from 'zod';
import type { PlatformRecord } from '../../data-access/platforms-repository';
import { toolUrls, type IntegrationsDeps } from '../../domain/context';
import {
  changePlatform,
  listRegistrations,
  registerPlatform,
  removePlatform,
} from '../../domain/manage-platforms';
import { gradeOf, sendAgain } from '../../domain/grades';
import type { GradeRecord } from '../../data-access/scores-repository';
import { launchOperations } from './launch';
import { registrationOperations } from './registration';
import { superAdminId } from './super-admin';
import { webhookOperations } from './webhooks-api';

const TAG = 'LMS connections';

const url = (label: string) =>
  textField({ label })
    .trim()
    .max(2048, `${label} must be at most 2048 characters`)
    .pipe(z.url({ error: `${label} must be a URL`, protocol: /^https?$/ }));

const platformBody = z.object({
  name: textField({ label: 'Name' })
    .trim()
    .min(1, 'Name is required')
    .max(120, 'Name must be at most 120 characters'),
  issuer: textField({ label: 'Issuer' })
    .trim()
    .min(1, 'Issuer is required')
    .max(2048, 'Issuer must be at most 2048 characters'),
  clientId: textField({ label: 'Client ID' })
    .trim()
    .min(1, 'Client ID is required')
    .max(255, 'Client ID must be at most 255 characters'),
  deploymentIds: z
    .array(
      textField({ label: 'Deployment ID' })
        .trim()
        .min(1, 'A deployment ID is required')
        .max(255, 'A deployment ID must be at most 255 characters'),
      { error: 'Deployment IDs are required' },
    )
    .min(1, 'At least one deployment ID is required')
    .max(50, 'At most 50 deployment IDs')
    .transform((ids) => [...new Set(ids)]),
  authUrl: url('Authorization URL'),
  jwksUrl: url('Key set URL'),
  tokenUrl: url('Access token URL'),
  disabled: z.boolean({ error: 'disabled must be true or false' }).default(false),
});

const platformOut = z.object({
  id: z.string(),
  name: z.string(),
  issuer: z.string(),
  clientId: z.string(),
  deploymentIds: z.array(z.string()),
  authUrl: z.string(),
  jwksUrl: z.string(),
  tokenUrl: z.string(),
  disabled: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const toolOut = z.object({ loginUrl: z.string(), launchUrl: z.string(), jwksUrl: z.string() });

const idParams = z.object({ id: z.string() });

const gradeOut = z.object({
  resultId: z.string(),
  state: z.enum(['none', 'pending', 'sent', 'failed']),
  scoreGiven: z.number(),
  tries: z.number(),
  lastStatus: z.number().nullable(),
  lastAnswer: z.string().nullable(),
  nextTryAt: z.string(),
  sentAt: z.string().nullable(),
  updatedAt: z.string(),
  platformName: z.string().nullable(),
});

const gradeView = (g: GradeRecord) => ({
  ...g,
  nextTryAt: g.nextTryAt.toISOString(),
  sentAt: g.sentAt?.toISOString() ?? null,
  updatedAt: g.updatedAt.toISOString(),
});

const GRADES_TAG = 'LMS grades';

const platformView = (p: PlatformRecord) => ({
  ...p,
  createdAt: p.createdAt.toISOString(),
  updatedAt: p.updatedAt.toISOString(),
});

const adminRefusals = { 400: 'Invalid field', 401: 'Not signed in', 403: 'Not a super admin' } as const;

const operation = operationsFor<IntegrationsDeps>();

/**
 * The integrations service's API: the LMS connections (super admins), the tool's public keys, and the two steps of
 * an LTI 1.3 launch, which a browser posts from inside the LMS.
 */
export const integrationsApi = serviceApi<IntegrationsDeps>({
  service: 'integrations',
  tags: [
    { name: TAG, description: 'LMS registrations (LTI 1.3) and what to paste into the LMS' },
    { name: GRADES_TAG, description: 'Scores sent back to the gradebook of the LMS a student came from' },
    {
      name: 'Webhooks',
      description: "Signed deliveries of the product's events to the institution's systems",
    },
    { name: 'LTI', description: 'The tool side of LTI 1.3: keys, login initiation, launch' },
  ],
  operations: {
    'GET /api/admin/lti/platforms': operation({
      summary: 'The LMS connections, and the tool URLs to paste into an LMS',
      tags: [TAG],
      admin: true,
      responses: {
        200: { description: 'By name', body: z.object({ platforms: z.array(platformOut), tool: toolOut }) },
        401: 'Not signed in',
        403: 'Not a super admin',
      },
      async handle({ res }, deps) {
        superAdminId(res);
        const platforms = await listRegistrations(deps);
        return { platforms: platforms.map(platformView), tool: toolUrls(deps.publicOrigin) };
      },
    }),
    'POST /api/admin/lti/platforms': operation({
      summary: 'Connects an LMS (its LTI 1.3 registration); audited',
      tags: [TAG],
      admin: true,
      body: platformBody,
      responses: {
        201: { description: 'Connected', body: z.object({ platform: platformOut }) },
        ...adminRefusals,
        409: 'This issuer and client ID are connected already',
      },
      async handle({ body, res }, deps) {
        const actorId = superAdminId(res);
        return { platform: platformView(await registerPlatform(deps, body, actorId)) };
      },
    }),
    'PUT /api/admin/lti/platforms/{id}': operation({
      summary: 'Edits an LMS connection, or disables (`disabled: true`) or enables it; audited',
      tags: [TAG],
      admin: true,
      params: idParams,
      body: platformBody,
      responses: {
        200: { description: 'As it is now', body: z.object({ platform: platformOut }) },
        ...adminRefusals,
        404: 'No such connection',
        409: 'Another connection has this issuer and client ID',
      },
      async handle({ params, body, res }, deps) {
        const actorId = superAdminId(res);
        return { platform: platformView(await changePlatform(deps, params.id, body, actorId)) };
      },
    }),
    'DELETE /api/admin/lti/platforms/{id}': operation({
      summary: 'Deletes an LMS connection; audited. Its launches so far are kept',
      tags: [TAG],
      admin: true,
      params: idParams,
      responses: {
        204: { description: 'Deleted' },
        401: 'Not signed in',
        403: 'Not a super admin',
        404: 'No such connection',
      },
      async handle({ params, res, answer }, deps) {
        await removePlatform(deps, params.id, superAdminId(res));
        return answer(204);
      },
    }),
    'GET /api/admin/lti/grades/{resultId}': operation({
      summary:
        "A result's score as sent to the gradebook of the LMS its student came from: sent, retrying or failed",
      tags: [GRADES_TAG],
      admin: true,
      params: z.object({ resultId: z.string() }),
      responses: {
        200: { description: 'Its delivery', body: z.object({ grade: gradeOut }) },
        401: 'Not signed in',
        404: 'The student did not come from an LMS',
      },
      async handle({ params }, deps) {
        return { grade: gradeView(await gradeOf(deps, params.resultId)) };
      },
    }),
    'POST /api/admin/lti/grades/{resultId}/send': operation({
      summary: 'Sends the score to the LMS again (after it was sent, or given up)',
      tags: [GRADES_TAG],
      admin: true,
      params: z.object({ resultId: z.string() }),
      responses: {
        202: { description: 'Queued: the grade sender takes it', body: z.object({ grade: gradeOut }) },
        401: 'Not signed in',
        404: 'The student did not come from an LMS, or the launch gave no gradebook column',
      },
      async handle({ params, answer }, deps) {
        return answer(202, { grade: gradeView(await sendAgain(deps, params.resultId)) });
      },
    }),
    'GET /api/lti/jwks': operation({
      summary: "The tool's public keys (RS256): the current one and those retired but still valid",
      tags: ['LTI'],
      responses: {
        200: {
          description: 'A JSON Web Key Set',
          body: z.object({
            keys: z.array(
              z.object({ kty: z.string(), kid: z.string(), n: z.string(), e: z.string() }).loose(),
            ),
          }),
        },
      },
      handle({ res }, deps) {
        res.setHeader('Cache-Control', 'public, max-age=300');
        return deps.toolKeys.jwks;
      },
    }),
    ...launchOperations,
    ...registrationOperations,
    ...webhookOperations,
  },
});
