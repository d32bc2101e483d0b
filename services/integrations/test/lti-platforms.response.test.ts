import { randomUUID } from 'node:crypto';
import { LtiPlatformChange } from '@readiness/contracts';
import { eventually, startServiceUnderTest, testAdminToken, type ServiceUnderTest } from '@readiness/testing';
import { integrationsService, type IntegrationsConfig } from '../src';
import { adminToken, superAdminToken } from './harness';

jest.setTimeout(60_000);

let h: ServiceUnderTest<IntegrationsConfig, undefined, 'integrations.lti-platform.changed.v1'>;

beforeAll(async () => {
  h = await startServiceUnderTest(integrationsService, {
    kind: 'embedded',
    config: { PUBLIC_ORIGIN: 'https://readiness.example.edu' },
    watch: ['integrations.lti-platform.changed.v1'],
  });
});
afterAll(() => h?.close());

const body = (overrides: Record<string, unknown> = {}) => ({
  name: 'Moodle',
  issuer: `https://moodle-${randomUUID().slice(0, 8)}.example.edu`,
  clientId: 'abc123',
  deploymentIds: ['1'],
  authUrl: 'https://moodle.example.edu/mod/lti/auth.php',
  jwksUrl: 'https://moodle.example.edu/mod/lti/certs.php',
  tokenUrl: 'https://moodle.example.edu/mod/lti/token.php',
  ...overrides,
});

test('when a plain admin or nobody calls the LMS connections, then 403 or 401 and nothing changes', async () => {
  expect((await h.call('GET', '/api/admin/lti/platforms', { token: adminToken() })).status).toBe(403);
  expect(
    (await h.call('POST', '/api/admin/lti/platforms', { token: adminToken(), body: body() })).status,
  ).toBe(403);
  expect((await h.call('POST', '/api/admin/lti/platforms', { token: null, body: body() })).status).toBe(401);
  const list = await h.call('GET', '/api/admin/lti/platforms', { token: superAdminToken() });
  expect(((await list.json()) as { platforms: unknown[] }).platforms).toEqual([]);
});

test.each([
  [{ name: '' }, 'name', 'Name is required'],
  [{ deploymentIds: [] }, 'deploymentIds', 'At least one deployment ID is required'],
  [{ authUrl: 'not a url' }, 'authUrl', 'Authorization URL must be a URL'],
  [{ jwksUrl: 'http://moodle.example.edu/certs.php' }, 'jwksUrl', 'Key set URL must be an https URL'],
  [{ tokenUrl: 'http://127.0.0.1:9/token' }, 'tokenUrl', 'Access token URL must be an https URL'],
])('when a registration has %j, then 400 naming %s', async (overrides, field, message) => {
  const res = await h.call('POST', '/api/admin/lti/platforms', {
    token: superAdminToken(),
    body: body(overrides),
  });
  expect(res.status).toBe(400);
  expect(await res.json()).toMatchObject({ field, message });
});

test('when a super admin connects, edits, disables and deletes an LMS, then each change is announced for the audit log', async () => {
  const actor = randomUUID();
  const token = testAdminToken(actor, { role: 'super_admin' });
  const created = await h.call('POST', '/api/admin/lti/platforms', { token, body: body() });
  expect(created.status).toBe(201);
  const { platform } = (await created.json()) as { platform: { id: string; issuer: string } };
  const again = await h.call('POST', '/api/admin/lti/platforms', {
    token,
    body: body({ issuer: platform.issuer }),
  });
  expect(again.status).toBe(409);

  const put = (changes: Record<string, unknown>) =>
    h.call('PUT', `/api/admin/lti/platforms/${platform.id}`, {
      token,
      body: body({ issuer: platform.issuer, ...changes }),
    });
  expect((await put({ name: 'Moodle (school)' })).status).toBe(200);
  expect((await put({ name: 'Moodle (school)', disabled: true })).status).toBe(200);
  expect((await h.call('DELETE', `/api/admin/lti/platforms/${platform.id}`, { token })).status).toBe(204);
  expect((await h.call('DELETE', `/api/admin/lti/platforms/${platform.id}`, { token })).status).toBe(404);

  // The relay publishes after the answers, so the last event may still be on its way.
  await eventually(() => {
    const announced = h.eventsNamed('integrations.lti-platform.changed.v1').map((e) => e.payload);
    expect(announced.map((e) => [e.change, e.actorId, e.platformId])).toEqual([
      [LtiPlatformChange.REGISTERED, actor, platform.id],
      [LtiPlatformChange.UPDATED, actor, platform.id],
      [LtiPlatformChange.DISABLED, actor, platform.id],
      [LtiPlatformChange.DELETED, actor, platform.id],
    ]);
  }, 'the four changes announced');
});

test('when the tool keys are asked for, then the RS256 public key is published without its private part', async () => {
  const res = await fetch(`${h.url}/api/lti/jwks`);
  const { keys } = (await res.json()) as { keys: Array<Record<string, unknown>> };
  expect(keys).toEqual([
    expect.objectContaining({ kty: 'RSA', alg: 'RS256', use: 'sig', kid: expect.any(String) }),
  ]);
  expect(keys[0]).not.toHaveProperty('d');
});
