/*
 * A real OpenID Provider for tests (oidc-provider, the certified implementation), started as its own process
 * by `startTestOidcProvider`. Its sign-in page stands for the institution's: it asks which of its people is
 * signing in (by e-mail) and lets them through without a password, then hands the browser back to the client.
 *
 * Configuration comes as JSON in TEST_OIDC_CONFIG: { port, client: { client_id, client_secret?,
 * redirect_uris, post_logout_redirect_uris }, people: [{ sub, email, email_verified, name }] }. It prints one
 * line, `ready <issuer>`, once it listens.
 */
import http from 'node:http';
import { generateKeyPair, exportJWK } from 'jose';
import Provider from 'oidc-provider';

const config = JSON.parse(process.env.TEST_OIDC_CONFIG ?? '{}');
const issuer = `http://127.0.0.1:${config.port}`;
const people = new Map(config.people.map((p) => [p.email.toLowerCase(), p]));
const bySub = new Map(config.people.map((p) => [p.sub, p]));

const { privateKey } = await generateKeyPair('RS256', { extractable: true });
const signingKey = { ...(await exportJWK(privateKey)), kid: 'test-provider', use: 'sig', alg: 'RS256' };

const provider = new Provider(issuer, {
  clients: [
    {
      ...config.client,
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: config.client.client_secret ? 'client_secret_basic' : 'none',
    },
  ],
  jwks: { keys: [signingKey] },
  cookies: { keys: ['readiness-test-provider'] },
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
  features: { devInteractions: { enabled: false }, rpInitiatedLogout: { enabled: true } },
  interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  async findAccount(_ctx, sub) {
    const person = bySub.get(sub);
    if (!person) return undefined;
    return {
      accountId: sub,
      claims: () => ({ sub, email: person.email, email_verified: person.email_verified, name: person.name }),
    };
  },
});
provider.on('server_error', (_ctx, err) => console.error('provider error', err));

const escape = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(uid, problem) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Institution sign-in</title></head>
<body><main><h1>Institution sign-in</h1>
${problem ? `<p role="alert">${escape(problem)}</p>` : ''}
<form method="post" action="/interaction/${escape(uid)}/login">
<label for="login">Institution e-mail</label> <input id="login" name="login" type="email" autocomplete="off">
<button type="submit">Continue</button></form></main></body></html>`;
}

async function readForm(req) {
  let body = '';
  for await (const chunk of req) body += chunk;
  return new URLSearchParams(body);
}

async function interaction(req, res, uid, action) {
  const details = await provider.interactionDetails(req, res);
  if (details.uid !== uid) throw new Error('interaction mismatch');
  if (!action) {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(uid));
    return;
  }
  const email = ((await readForm(req)).get('login') ?? '').trim().toLowerCase();
  const person = people.get(email);
  if (!person) {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(uid, 'Unknown person.'));
    return;
  }
  const grant = new provider.Grant({ accountId: person.sub, clientId: details.params.client_id });
  grant.addOIDCScope(String(details.params.scope));
  const grantId = await grant.save();
  await provider.interactionFinished(
    req,
    res,
    { login: { accountId: person.sub }, consent: { grantId } },
    { mergeWithLastSubmission: false },
  );
}

const handle = provider.callback();
const server = http.createServer((req, res) => {
  const match = /^\/interaction\/([\w-]+)(\/login)?$/.exec(new URL(req.url, issuer).pathname);
  if (!match) {
    handle(req, res);
    return;
  }
  interaction(req, res, match[1], Boolean(match[2] && req.method === 'POST')).catch((err) => {
    console.error('interaction failed', err);
    if (!res.headersSent) res.writeHead(500).end(String(err.message));
  });
});
server.listen(config.port, '127.0.0.1', () => process.stdout.write(`ready ${issuer}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
