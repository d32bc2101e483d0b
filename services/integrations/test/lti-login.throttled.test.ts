import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { sweepLapsed } from '../src/domain/sweep-lapsed';
import { login, integrationsWithPlatform } from './harness';

jest.setTimeout(60_000);

const file = integrationsWithPlatform({ LTI_LOGIN_RATE_LIMIT: 3 });

const db = () => file.h.integrations.database;
const states = async (table: 'lti_logins' | 'lti_deep_link_requests') =>
  (await db().execute<{ n: number }>(sql.raw(`SELECT count(*)::int AS n FROM ${table}`)))[0]!.n;

test('when one address initiates more logins in a minute than allowed, then the next is refused with a page and keeps no state', async () => {
  for (let i = 0; i < 3; i += 1) expect((await login(file.h, file.platform)).res.status).toBe(302);
  const before = await states('lti_logins');
  const { res } = await login(file.h, file.platform);
  expect(res.status).toBe(429);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(await res.text()).toContain('Too many launches from your network');
  expect(await states('lti_logins')).toBe(before);
});

test('when logins and deep-linking requests have lapsed, then the sweep deletes them, once across replicas, and keeps the waiting ones', async () => {
  const lapsed = new Date(Date.now() - 60_000);
  const waiting = new Date(Date.now() + 60_000);
  const addLogin = (expiresAt: Date, used = false) =>
    db().execute(
      sql`INSERT INTO lti_logins (state, nonce, platform_id, binding_hash, target_link_uri, expires_at, used_at)
          VALUES (${randomUUID()}, ${randomUUID()}, ${file.platformId}, ${randomBytes(32)}, 'https://x', ${expiresAt},
                  ${used ? new Date() : null})`,
    );
  const addRequest = (expiresAt: Date) =>
    db().execute(
      sql`INSERT INTO lti_deep_link_requests (id_hash, platform_id, deployment_id, return_url, nonce, expires_at)
          VALUES (${randomBytes(32)}, ${file.platformId}, 'deployment-1', 'https://x', ${randomUUID()}, ${expiresAt})`,
    );
  await Promise.all([
    addLogin(lapsed),
    addLogin(lapsed, true),
    addLogin(waiting),
    addRequest(lapsed),
    addRequest(waiting),
  ]);
  const logins = await states('lti_logins');
  const requests = await states('lti_deep_link_requests');

  // Two replicas sweeping at the same moment.
  const deps = { database: db(), logger: file.h.integrations.service.logger };
  const [a, b] = await Promise.all([sweepLapsed(deps), sweepLapsed(deps)]);
  expect(a.logins + b.logins).toBe(2);
  expect(a.deepLinks + b.deepLinks).toBe(1);
  expect(await states('lti_logins')).toBe(logins - 2);
  expect(await states('lti_deep_link_requests')).toBe(requests - 1);
});
