import { sql } from 'drizzle-orm';
import {
  adminToken,
  startIntegrations,
  startTestPlatform,
  superAdminToken,
  type TestPlatform,
} from './harness';

jest.setTimeout(60_000);

let h: Awaited<ReturnType<typeof startIntegrations>>;
let lms: TestPlatform;

beforeAll(async () => {
  h = await startIntegrations();
  lms = await startTestPlatform();
});
afterAll(async () => {
  await h?.close();
  await lms?.close();
});

const newLink = async (token = superAdminToken()) =>
  h.call('POST', '/api/admin/lti/registration-links', { token });

/** The LMS opening the link with its configuration and token, as Moodle's "Tool URL" does. */
function openLink(url: string, overrides: Record<string, string> = {}) {
  const at = new URL(url);
  at.searchParams.set('openid_configuration', lms.openidConfiguration);
  at.searchParams.set('registration_token', lms.registrationToken);
  for (const [k, v] of Object.entries(overrides)) at.searchParams.set(k, v);
  return fetch(`${h.url}${at.pathname}${at.search}`, { redirect: 'manual' });
}

const platforms = async () => {
  const found = await h.database.execute<{ client_id: string; name: string; deployment_ids: string[] }>(
    sql`SELECT client_id, name, deployment_ids FROM lti_platforms ORDER BY created_at`,
  );
  return found;
};

describe('LTI Dynamic Registration', () => {
  it('when the LMS opens a super admin’s one-time link, then Readiness registers there, keeps the connection, and the link works once', async () => {
    const made = await newLink();
    expect(made.status).toBe(201);
    const { url } = (await made.json()) as { url: string; expiresAt: string };
    expect(url).toMatch(/^https:\/\/readiness\.example\.edu\/api\/lti\/register\?link=[\w-]{43}$/);

    const page = await openLink(url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Readiness is now connected to <strong>Moodle (127.0.0.1');
    expect(html).toContain("postMessage({ subject: 'org.imsglobal.lti.close' }, '*')");
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'nonce-/);

    expect(lms.registrations).toHaveLength(1);
    expect(lms.registrations[0]).toMatchObject({
      initiate_login_uri: 'https://readiness.example.edu/api/lti/login',
      redirect_uris: ['https://readiness.example.edu/api/lti/launch'],
      jwks_uri: 'https://readiness.example.edu/api/lti/jwks',
      token_endpoint_auth_method: 'private_key_jwt',
    });
    expect(await platforms()).toEqual([
      {
        client_id: expect.stringMatching(/^dynamic-1-/),
        name: expect.stringMatching(/^Moodle/),
        deployment_ids: ['dynamic-deployment'],
      },
    ]);

    // Used: a second opening registers nothing and reaches nothing.
    const again = await openLink(url);
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('expired or was used already');
    expect(lms.registrations).toHaveLength(1);
  });

  it('when a link is made up, or its configuration or registration endpoint is another site’s, then nothing is fetched or kept', async () => {
    const before = (await platforms()).length;
    const forged = await openLink('https://readiness.example.edu/api/lti/register?link=made-up');
    expect(forged.status).toBe(400);
    expect(lms.registrations).toHaveLength(1);

    const { url } = (await (await newLink()).json()) as { url: string };
    // A configuration whose issuer is not its address's prefix: the LMS at 127.0.0.1 cannot speak for another.
    const elsewhere = await openLink(url, {
      openid_configuration: lms.openidConfiguration.replace('127.0.0.1', 'localhost'),
    });
    expect(elsewhere.status).toBe(400);
    expect(await elsewhere.text()).toContain('names another site');
    const wrongToken = await openLink(url, { registration_token: 'not-the-lms-token' });
    expect(wrongToken.status).toBe(502);
    expect((await platforms()).length).toBe(before);
    // The failures left the link usable for the genuine opening.
    expect((await openLink(url)).status).toBe(200);
  });

  it('when a plain admin asks for a link, then it is refused', async () => {
    expect((await newLink(adminToken())).status).toBe(403);
  });
});
