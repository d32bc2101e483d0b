/*
 * Single sign-on through the institution's OpenID Provider, as a browser goes through it (its cookies, each
 * redirect), against a real provider (oidc-provider, started by the test) and, for the answers a real provider
 * never gives, a rogue one whose ID tokens carry the wrong issuer, audience, expiry or nonce. Every refused case
 * must leave no session behind.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { capturingLogger, startTestOidcProvider, type TestOidcProvider } from '@readiness/testing';
import { SSO_REFUSAL_AUDITS } from '../src/domain/login-throttle';
import { ROOT, client, startAuth, uniqueEmail, type Harness } from './harness';
import { SoftwarePasskey, type CeremonyOptions } from './software-passkey';

jest.setTimeout(90_000);

/** Where the browser would reach Readiness; the test takes each redirect's path to the service itself. */
const ORIGIN = 'http://readiness.test';
const CALLBACK = `${ORIGIN}/api/auth/oidc/callback`;
const CLIENT = { clientId: 'readiness', clientSecret: 'readiness-test-secret' };

/** Cookies per host, as a browser keeps them (only what these flows need: name=value, path ignored). */
class Browser {
  private readonly jars = new Map<string, Map<string, string>>();

  constructor(private readonly service: string) {}

  /** A request as the browser sends it; `readiness.test` addresses go to the service under test. */
  async request(url: string, init: { method?: string; body?: string; type?: string } = {}) {
    const target = new URL(url.startsWith(ORIGIN) ? url.replace(ORIGIN, this.service) : url);
    const jar = this.jar(new URL(url).host);
    const headers: Record<string, string> = {};
    if (jar.size) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    if (init.type) headers['content-type'] = init.type;
    const res = await fetch(target, {
      method: init.method ?? 'GET',
      headers,
      body: init.body,
      redirect: 'manual',
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const [name = '', value = ''] = pair.split('=');
      const expired = attributes.some(
        (a) => /expires=thu, 01 jan 1970/i.test(a.trim()) || /max-age=0/i.test(a),
      );
      if (expired || value === '') jar.delete(name.trim());
      else jar.set(name.trim(), value.trim());
    }
    const location = res.headers.get('location');
    return { res, location: location && new URL(location, url).href };
  }

  cookie(host: string, name: string): string | undefined {
    return this.jar(host).get(name);
  }

  setCookie(host: string, name: string, value: string): void {
    this.jar(host).set(name, value);
  }

  private jar(host: string): Map<string, string> {
    let jar = this.jars.get(host);
    if (!jar) this.jars.set(host, (jar = new Map()));
    return jar;
  }
}

const READINESS_HOST = new URL(ORIGIN).host;

/** From Readiness's start to the provider's redirect back (not followed): the callback URL the browser holds. */
async function throughProvider(browser: Browser, email: string, returnTo?: string): Promise<string> {
  const start = await browser.request(
    `${ORIGIN}/api/auth/oidc/start${returnTo ? `?returnTo=${encodeURIComponent(returnTo)}` : ''}`,
  );
  expect(start.res.status).toBe(302);
  let next = start.location!;
  for (let hops = 0; hops < 10; hops++) {
    if (next.startsWith(CALLBACK)) return next;
    const interaction = /\/interaction\/([\w-]+)$/.exec(new URL(next).pathname);
    if (interaction) {
      const form = new URL(`/interaction/${interaction[1]}/login`, next).href;
      const posted = await browser.request(form, {
        method: 'POST',
        type: 'application/x-www-form-urlencoded',
        body: new URLSearchParams({ login: email }).toString(),
      });
      next = posted.location!;
      continue;
    }
    const hop = await browser.request(next);
    if (!hop.location) throw new Error(`the provider answered ${hop.res.status} at ${next}`);
    next = hop.location;
  }
  throw new Error('the provider never sent the browser back');
}

/** The callback, then the web app's exchange: the login page's query and, when signed in, the session. */
async function finish(browser: Browser, callbackUrl: string) {
  const back = await browser.request(callbackUrl);
  expect(back.res.status).toBe(302);
  const landed = new URL(back.location!);
  expect(landed.pathname).toBe('/admin/login');
  const exchange = await browser.request(`${ORIGIN}/api/auth/oidc/session`, { method: 'POST' });
  const body = (await exchange.res.json()) as Record<string, unknown>;
  return { landed: landed.searchParams, status: exchange.res.status, body };
}

describe('single sign-on with a real OpenID Provider', () => {
  let provider: TestOidcProvider;
  let h: Harness;
  let api: ReturnType<typeof client>;
  let rootToken: string;
  const ADA = { email: uniqueEmail('ada'), name: 'Ada Lovelace' };
  const GRACE = { email: uniqueEmail('grace'), name: 'Grace Hopper' };
  const MALLORY = { email: uniqueEmail('mallory'), name: 'Mallory Insider' };
  const STRANGER = { email: uniqueEmail('stranger') };
  const UNVERIFIED = { email: uniqueEmail('unverified') };

  beforeAll(async () => {
    provider = await startTestOidcProvider({
      ...CLIENT,
      redirectUris: [CALLBACK],
      postLogoutRedirectUris: [`${ORIGIN}/admin/login`],
      people: [
        { sub: 'ada', email: ADA.email.toUpperCase(), email_verified: true, name: ADA.name },
        { sub: 'grace', email: GRACE.email, email_verified: true, name: GRACE.name },
        { sub: 'mallory', email: MALLORY.email, email_verified: true, name: MALLORY.name },
        { sub: 'stranger', email: STRANGER.email, email_verified: true, name: 'Nobody Here' },
        { sub: 'unverified', email: UNVERIFIED.email, email_verified: false, name: 'Not Checked' },
      ],
    });
    h = await startAuth('embedded', {
      PUBLIC_ORIGIN: ORIGIN,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: CLIENT.clientId,
      OIDC_CLIENT_SECRET: CLIENT.clientSecret,
      OIDC_DISPLAY_NAME: 'Test University',
    });
    api = client(h.url);
    rootToken = await api.login(ROOT.email, ROOT.password);
    for (const person of [ADA, GRACE, MALLORY]) {
      await api.createAdmin(rootToken, { ...person, password: 'unused-password-9', role: 'admin' });
    }
  });

  afterAll(async () => {
    await h?.close();
    await provider?.stop();
  });

  it('tells the login page which provider to offer', async () => {
    const options = await api.call('GET', '/api/auth/sign-in-options');
    expect(options.body).toEqual({ singleSignOn: { name: 'Test University' }, passwordSignIn: 'everyone' });
  });

  it('signs an admin in by their verified e-mail and hands the session to the browser once', async () => {
    const browser = new Browser(h.url);
    const callback = await throughProvider(browser, ADA.email, '/admin/results?page=2');
    const done = await finish(browser, callback);
    expect(done.landed.get('sso')).toBe('signed-in');
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      admin: { email: ADA.email, name: ADA.name },
      returnTo: '/admin/results?page=2',
    });
    expect(String(done.body.endSessionUrl)).toContain(`${provider.issuer}/session/end`);

    // A Readiness session exactly like a password one.
    const me = await api.call('GET', '/api/auth/me', { token: String(done.body.token) });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ admin: { email: ADA.email } });
    const refreshed = await api.call('POST', '/api/auth/refresh', { token: String(done.body.token) });
    expect(refreshed.status).toBe(200);
    // …listed among the admin's own sessions, like a password one.
    const sessions = await api.call<{ sessions: Array<{ current: boolean }> }>('GET', '/api/auth/sessions', {
      token: String(done.body.token),
    });
    expect(sessions.body.sessions).toEqual([expect.objectContaining({ current: true })]);

    // The cookie is spent: a second exchange, or a replay of the callback, gets nothing.
    const again = await browser.request(`${ORIGIN}/api/auth/oidc/session`, { method: 'POST' });
    expect(again.res.status).toBe(401);
    const replay = await finish(browser, callback);
    expect(replay.landed.get('sso_error')).toBe('failed');
    expect(replay.status).toBe(401);

    const audit = await api.call<{ entries: Array<{ action: string; details: Record<string, unknown> }> }>(
      'GET',
      '/api/admin/audit-log',
      { token: rootToken },
    );
    expect(audit.body.entries).toContainEqual(
      expect.objectContaining({ action: 'admin.signed-in', details: { method: 'sso' } }),
    );
  });

  it.each([
    ['someone the provider knows but Readiness does not', STRANGER.email, 'no_account'],
    ['an e-mail the provider never verified', UNVERIFIED.email, 'unverified'],
  ])('refuses %s', async (_label, email, reason) => {
    const browser = new Browser(h.url);
    const done = await finish(browser, await throughProvider(browser, email));
    expect(done.landed.get('sso_error')).toBe(reason);
    expect(done.status).toBe(401);
  });

  it('refuses a disabled admin', async () => {
    const admins = await api.call<{ admins: Array<{ _id: string; email: string }> }>(
      'GET',
      '/api/admin/admins',
      {
        token: rootToken,
      },
    );
    const grace = admins.body.admins.find((a) => a.email === GRACE.email)!;
    await api.call('PATCH', `/api/admin/admins/${grace._id}/status`, {
      token: rootToken,
      body: { status: 'disabled' },
    });
    const browser = new Browser(h.url);
    const done = await finish(browser, await throughProvider(browser, GRACE.email));
    expect(done.landed.get('sso_error')).toBe('disabled');
    expect(done.status).toBe(401);
  });

  it('refuses a callback whose state was changed, and the sign-in it belonged to goes on', async () => {
    const browser = new Browser(h.url);
    const callback = new URL(await throughProvider(browser, ADA.email));
    const honest = callback.href;
    for (const forged of ['forged-state', '']) {
      callback.searchParams.set('state', forged);
      const refused = await browser.request(callback.href);
      expect(new URL(refused.location!).searchParams.get('sso_error')).toBe('failed');
    }
    callback.searchParams.delete('state');
    expect(new URL((await browser.request(callback.href)).location!).searchParams.get('sso_error')).toBe(
      'failed',
    );
    const done = await finish(browser, honest);
    expect(done.landed.get('sso')).toBe('signed-in');
    expect(done.body).toMatchObject({ admin: { email: ADA.email } });
  });

  it('refuses a callback carried to another browser (login CSRF), and the victim’s own sign-in goes on', async () => {
    const victim = new Browser(h.url);
    const attacker = new Browser(h.url);
    const attackersCallback = await throughProvider(attacker, MALLORY.email);
    // The victim is signing in too: back from the provider, their own callback not yet opened.
    const victimsCallback = await throughProvider(victim, ADA.email);
    expect(victim.cookie(READINESS_HOST, 'readiness_sso')).toBeTruthy();
    // The attacker's page opens the attacker's callback in the victim's browser.
    const forced = await victim.request(attackersCallback);
    expect(new URL(forced.location!).searchParams.get('sso_error')).toBe('failed');
    expect(victim.cookie(READINESS_HOST, 'readiness_sso')).toBeTruthy();
    const own = await finish(victim, victimsCallback);
    expect(own.landed.get('sso')).toBe('signed-in');
    expect(own.body).toMatchObject({ admin: { email: ADA.email } });
    // Nor does the attacker's callback work anywhere else without the attacker's cookie.
    const bare = await finish(new Browser(h.url), attackersCallback);
    expect(bare.landed.get('sso_error')).toBe('failed');
    expect(bare.status).toBe(401);
  });

  it('refuses the provider’s "access denied" as cancelled', async () => {
    const browser = new Browser(h.url);
    const start = await browser.request(`${ORIGIN}/api/auth/oidc/start`);
    const state = new URL(start.location!).searchParams.get('state')!;
    const done = await finish(
      browser,
      `${CALLBACK}?error=access_denied&state=${state}&iss=${encodeURIComponent(provider.issuer)}`,
    );
    expect(done.landed.get('sso_error')).toBe('cancelled');
  });

  it('only sends the browser back to an in-app admin page', async () => {
    for (const returnTo of [
      '//evil.example/admin/',
      'https://evil.example/',
      '/admin/login',
      '/\\evil.example',
    ]) {
      const browser = new Browser(h.url);
      const done = await finish(browser, await throughProvider(browser, ADA.email, returnTo));
      expect(done.body.returnTo).toBe('/admin/dashboard');
    }
  });
});

describe('single sign-on leaves no secret in the logs and cannot flood the audit log', () => {
  let provider: TestOidcProvider;
  let h: Harness;
  const logs = capturingLogger('auth-sso-logs', 'debug');
  const MEMBER = { email: uniqueEmail('member'), name: 'Member Admin' };
  const OUTSIDER = uniqueEmail('outsider');

  beforeAll(async () => {
    provider = await startTestOidcProvider({
      ...CLIENT,
      redirectUris: [CALLBACK],
      people: [
        { sub: 'member', email: MEMBER.email, email_verified: true, name: MEMBER.name },
        { sub: 'outsider', email: OUTSIDER, email_verified: true, name: 'Outsider' },
      ],
    });
    h = await startAuth(
      'embedded',
      {
        PUBLIC_ORIGIN: ORIGIN,
        OIDC_ISSUER: provider.issuer,
        OIDC_CLIENT_ID: CLIENT.clientId,
        OIDC_CLIENT_SECRET: CLIENT.clientSecret,
      },
      logs.logger,
    );
    const api = client(h.url);
    await api.createAdmin(await api.login(ROOT.email, ROOT.password), {
      ...MEMBER,
      password: 'unused-password-9',
      role: 'admin',
    });
  });

  afterAll(async () => {
    await h?.close();
    await provider?.stop();
  });

  it('never logs the callback’s code or state, in the request log or anywhere else', async () => {
    const browser = new Browser(h.url);
    const callback = new URL(await throughProvider(browser, MEMBER.email));
    const code = callback.searchParams.get('code')!;
    const state = callback.searchParams.get('state')!;
    // A forged one too: its values are as secret to the log as the real ones.
    const forged = new URL(callback.href);
    forged.searchParams.set('state', 'forged-state-value');
    await browser.request(forged.href);
    expect((await finish(browser, callback.href)).landed.get('sso')).toBe('signed-in');
    const lines = logs.lines.join('');
    expect(lines).toContain('/api/auth/oidc/callback?code=[redacted]&state=[redacted]');
    for (const secret of [code, state, 'forged-state-value']) expect(lines).not.toContain(secret);
  });

  it('audits refused sign-ins up to a budget per address, and still refuses past it', async () => {
    const api = client(h.url);
    const root = await api.login(ROOT.email, ROOT.password);
    const refusalsOf = async () => {
      const audit = await api.call<{ entries: Array<{ details: Record<string, unknown> }> }>(
        'GET',
        '/api/admin/audit-log?limit=200',
        { token: root },
      );
      return audit.body.entries.filter((e) => e.details.email === OUTSIDER);
    };
    for (let i = 0; i < SSO_REFUSAL_AUDITS + 3; i++) {
      const browser = new Browser(h.url);
      const done = await finish(browser, await throughProvider(browser, OUTSIDER));
      expect(done.landed.get('sso_error')).toBe('no_account');
    }
    const refusals = await refusalsOf();
    expect(refusals).toHaveLength(SSO_REFUSAL_AUDITS);
    expect(refusals[0]!.details).toMatchObject({
      method: 'sso',
      reason: 'no_account',
      address: expect.any(String),
    });
  });
});

type Scenario = 'honest' | 'other-issuer' | 'other-audience' | 'expired' | 'wrong-nonce' | 'unsigned';

/**
 * A provider that signs whatever a scenario asks: discovery, keys, an authorization endpoint that sends the
 * browser straight back with a code, and a token endpoint whose ID token is wrong in one way.
 */
async function startRogueProvider(): Promise<{
  issuer: string;
  scenario: { now: Scenario };
  close(): Promise<void>;
}> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'rogue', alg: 'RS256', use: 'sig' };
  const scenario = { now: 'honest' as Scenario };
  const nonces = new Map<string, string>();
  let issuer = '';
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url!, issuer);
    const json = (body: unknown) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (url.pathname === '/.well-known/openid-configuration') {
      json({
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
      });
    } else if (url.pathname === '/jwks') {
      json({ keys: [jwk] });
    } else if (url.pathname === '/authorize') {
      const code = `code-${nonces.size}`;
      nonces.set(code, url.searchParams.get('nonce') ?? '');
      const back = new URL(url.searchParams.get('redirect_uri')!);
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state')!);
      res.writeHead(302, { location: back.href }).end();
    } else if (url.pathname === '/token') {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const code = new URLSearchParams(body).get('code')!;
        void idToken(scenario.now, nonces.get(code) ?? '').then((id_token) =>
          json({ access_token: 'rogue-access', token_type: 'Bearer', expires_in: 300, id_token }),
        );
      });
    } else {
      res.writeHead(404).end();
    }
  });
  async function idToken(kind: Scenario, nonce: string): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      email: ROGUE_ADMIN,
      email_verified: true,
      nonce: kind === 'wrong-nonce' ? 'another-nonce' : nonce,
    };
    if (kind === 'unsigned') {
      const encode = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
      return `${encode({ alg: 'none' })}.${encode({ ...claims, iss: issuer, aud: CLIENT.clientId, sub: 'x', iat: now, exp: now + 300 })}.`;
    }
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: 'rogue' })
      .setSubject('rogue-subject')
      .setIssuer(kind === 'other-issuer' ? 'https://other-issuer.example' : issuer)
      .setAudience(kind === 'other-audience' ? 'another-client' : CLIENT.clientId)
      .setIssuedAt(kind === 'expired' ? now - 7200 : now)
      .setExpirationTime(kind === 'expired' ? now - 3600 : now + 300)
      .sign(privateKey);
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { issuer, scenario, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const ROGUE_ADMIN = uniqueEmail('rogue-target');

describe('single sign-on refuses ID tokens a real provider would never send', () => {
  let rogue: Awaited<ReturnType<typeof startRogueProvider>>;
  let h: Harness;

  beforeAll(async () => {
    rogue = await startRogueProvider();
    h = await startAuth('embedded', {
      PUBLIC_ORIGIN: ORIGIN,
      OIDC_ISSUER: rogue.issuer,
      OIDC_CLIENT_ID: CLIENT.clientId,
      OIDC_CLIENT_SECRET: CLIENT.clientSecret,
    });
    const api = client(h.url);
    const root = await api.login(ROOT.email, ROOT.password);
    await api.createAdmin(root, {
      name: 'Target Admin',
      email: ROGUE_ADMIN,
      password: 'unused-password-9',
      role: 'admin',
    });
  });

  afterAll(async () => {
    await h?.close();
    await rogue?.close();
  });

  async function attempt(): Promise<Awaited<ReturnType<typeof finish>>> {
    const browser = new Browser(h.url);
    const start = await browser.request(`${ORIGIN}/api/auth/oidc/start`);
    const back = await browser.request(start.location!);
    return finish(browser, back.location!);
  }

  it('accepts the honest token (the rogue provider itself works)', async () => {
    rogue.scenario.now = 'honest';
    const done = await attempt();
    expect(done.landed.get('sso')).toBe('signed-in');
    expect(done.status).toBe(200);
  });

  it.each<Scenario>(['other-issuer', 'other-audience', 'expired', 'wrong-nonce', 'unsigned'])(
    'refuses an ID token with %s, and no session follows',
    async (kind) => {
      rogue.scenario.now = kind;
      const done = await attempt();
      expect(done.landed.get('sso_error')).toBe('failed');
      expect(done.status).toBe(401);
    },
  );
});

describe('single sign-on around its edges', () => {
  it('takes a callback once even when it arrives many times at once', async () => {
    const provider = await startTestOidcProvider({
      ...CLIENT,
      redirectUris: [CALLBACK],
      people: [{ sub: 'burst', email: 'burst@example.com', email_verified: true, name: 'Burst Admin' }],
    });
    const h = await startAuth('embedded', {
      PUBLIC_ORIGIN: ORIGIN,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: CLIENT.clientId,
      OIDC_CLIENT_SECRET: CLIENT.clientSecret,
    });
    try {
      const api = client(h.url);
      const root = await api.login(ROOT.email, ROOT.password);
      await api.createAdmin(root, {
        name: 'Burst Admin',
        email: 'burst@example.com',
        password: 'unused-password-9',
        role: 'admin',
      });
      const browser = new Browser(h.url);
      const callback = await throughProvider(browser, 'burst@example.com');
      const landings = await Promise.all(
        Array.from(
          { length: 8 },
          async () => new URL((await browser.request(callback)).location!).searchParams,
        ),
      );
      expect(landings.filter((q) => q.get('sso') === 'signed-in')).toHaveLength(1);
      expect(landings.filter((q) => q.get('sso_error') === 'failed')).toHaveLength(7);
      const exchanges = await Promise.all(
        Array.from({ length: 8 }, () =>
          browser.request(`${ORIGIN}/api/auth/oidc/session`, { method: 'POST' }),
        ),
      );
      expect(exchanges.map((e) => e.res.status).sort()).toEqual([200, 401, 401, 401, 401, 401, 401, 401]);
    } finally {
      await h.close();
      await provider.stop();
    }
  });

  it('keeps password sign-in working while the provider cannot be reached, and says so on the login page', async () => {
    // Nothing listens on this loopback port: discovery fails, the service still starts.
    const h = await startAuth('embedded', {
      PUBLIC_ORIGIN: ORIGIN,
      OIDC_ISSUER: 'http://127.0.0.1:9/unreachable',
      OIDC_CLIENT_ID: CLIENT.clientId,
    });
    try {
      const start = await new Browser(h.url).request(`${ORIGIN}/api/auth/oidc/start`);
      expect(start.res.status).toBe(302);
      expect(start.location).toBe(`${ORIGIN}/admin/login?sso_error=unavailable`);
      await expect(client(h.url).login(ROOT.email, ROOT.password)).resolves.toEqual(expect.any(String));
    } finally {
      await h.close();
    }
  });

  it('with OIDC_ALLOW_PASSWORD=false, lets only super admins use a password', async () => {
    const h = await startAuth('embedded', {
      PUBLIC_ORIGIN: ORIGIN,
      OIDC_ISSUER: 'http://127.0.0.1:9/unreachable',
      OIDC_CLIENT_ID: CLIENT.clientId,
      OIDC_DISPLAY_NAME: 'Test University',
      OIDC_ALLOW_PASSWORD: 'false',
    });
    try {
      const api = client(h.url);
      const root = await api.login(ROOT.email, ROOT.password);
      const email = uniqueEmail('password-off');
      const created = await api.call<{ admin: { mustChangePassword: boolean } }>(
        'POST',
        '/api/admin/admins',
        {
          token: root,
          body: { name: 'Regular Admin', email, password: 'regular-password-9', role: 'admin' },
        },
      );
      // A password that cannot sign in is no password to replace: their sign-in with the provider is not held up.
      expect(created.body.admin.mustChangePassword).toBe(false);
      const refused = await api.call('POST', '/api/auth/login', {
        body: { email, password: 'regular-password-9' },
      });
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe(
        'Password sign-in is turned off for your account. Sign in with Test University instead.',
      );
      // A wrong password still reads as a wrong password: the setting tells nothing to someone without it.
      const wrong = await api.call('POST', '/api/auth/login', {
        body: { email, password: 'not-the-password' },
      });
      expect(wrong.status).toBe(401);
      expect((await api.call('GET', '/api/auth/sign-in-options')).body).toEqual({
        singleSignOn: { name: 'Test University' },
        passwordSignIn: 'super-admins',
      });

      // A passkey alone follows the same rule: an admin who made one as a super admin, then lost that role, is
      // sent to the provider; a super admin still signs in with theirs.
      const demoted = uniqueEmail('passkey-off');
      const made = await api.createAdmin(root, {
        name: 'Former Super Admin',
        email: demoted,
        password: 'former-super-9',
        role: 'super_admin',
      });
      const theirs = await addPasskey(api, await api.login(demoted, 'former-super-9'));
      const rootKey = await addPasskey(api, root);
      const demotion = await api.call('PUT', `/api/admin/admins/${made._id}`, {
        token: root,
        body: { name: 'Former Super Admin', email: demoted, role: 'admin' },
      });
      expect(demotion.status).toBe(200);
      const passkeyRefused = await signInWithPasskey(api, theirs);
      expect(passkeyRefused.status).toBe(403);
      expect(passkeyRefused.body.message).toBe(
        'Passkey sign-in is turned off for your account. Sign in with Test University instead.',
      );
      expect((await signInWithPasskey(api, rootKey)).status).toBe(200);
    } finally {
      await h.close();
    }
  });

  it.each([
    [
      'an http issuer that is not on this machine',
      { OIDC_ISSUER: 'http://idp.example.edu', OIDC_CLIENT_ID: 'x' },
      'OIDC_ISSUER',
    ],
    ['an issuer without a client id', { OIDC_ISSUER: 'https://idp.example.edu' }, 'OIDC_CLIENT_ID'],
    ['passwords off without a provider', { OIDC_ALLOW_PASSWORD: 'false' }, 'OIDC_ALLOW_PASSWORD'],
  ])('refuses to start with %s', async (_label, config, key) => {
    await expect(startAuth('embedded', config)).rejects.toThrow(key);
  });
});

/** Adds a passkey from the Security page with a software authenticator at this test's origin. */
async function addPasskey(api: ReturnType<typeof client>, token: string): Promise<SoftwarePasskey> {
  const passkey = new SoftwarePasskey(ORIGIN);
  const options = await api.call<{ options: CeremonyOptions }>('POST', '/api/auth/mfa/passkeys/options', {
    token,
  });
  const added = await api.call('POST', '/api/auth/mfa/passkeys', {
    token,
    body: { name: 'Laptop', passkey: passkey.register(options.body.options) },
  });
  expect(added.status).toBe(201);
  return passkey;
}

async function signInWithPasskey(api: ReturnType<typeof client>, passkey: SoftwarePasskey) {
  const options = await api.call<{ options: CeremonyOptions }>('POST', '/api/auth/login/passkey/options');
  return api.call('POST', '/api/auth/login/passkey', {
    body: { passkey: passkey.answer(options.body.options) },
  });
}
