/*
 * Passkeys (issue 23, item 2) through the API, answered by a software authenticator on real WebAuthn bytes: added
 * from the admin's own Security page, asked for after the password as a second factor, and signing in alone. The
 * hostile cases: replayed and parallel answers, a challenge of another ceremony or another admin, another origin or
 * site, a counter that went backwards (a cloned key), an unknown credential, no user verification where it is
 * needed, a disabled account, malformed and oversized bodies, and the last factor under the MFA policy.
 */
import { authForFile, signedInAdmin } from './harness';
import { SoftwarePasskey, type CeremonyOptions } from './software-passkey';

const auth = authForFile();

jest.setTimeout(120_000);

type Session = { token?: string; admin?: { email: string; mfaEnabled: boolean }; recoveryCodes?: string[] };
type Refusal = { code?: string; message?: string };

const newAdmin = (label: string) => signedInAdmin(auth, label);

async function options(path: string, body?: unknown, token?: string): Promise<CeremonyOptions> {
  const res = await auth.api.call<{ options: CeremonyOptions }>('POST', path, { body, token });
  expect(res.status).toBe(200);
  return res.body.options;
}

/** Adds a passkey from the Security page; answers what the service said. */
async function addPasskey(token: string, passkey = new SoftwarePasskey(), name = 'Work laptop') {
  const created = await options('/api/auth/mfa/passkeys/options', undefined, token);
  const res = await auth.api.call<
    { passkey: { id: string; name: string }; recoveryCodes?: string[] } & Refusal
  >('POST', '/api/auth/mfa/passkeys', { token, body: { name, passkey: passkey.register(created) } });
  return { passkey, res };
}

const passwordStep = (email: string, password: string) =>
  auth.api.call<{ challenge: string; methods: string[]; token?: string }>('POST', '/api/auth/login', {
    body: { email, password },
  });

const secondStep = (body: Record<string, unknown>) =>
  auth.api.call<Session & Refusal>('POST', '/api/auth/login/mfa', { body });

const passkeySignIn = (answer: unknown) =>
  auth.api.call<Session & Refusal>('POST', '/api/auth/login/passkey', { body: { passkey: answer } });

async function auditActions(targetId: string) {
  const res = await auth.api.call<{
    entries: Array<{ action: string; target: { _id: string } | null; details: unknown }>;
  }>('GET', '/api/admin/audit-log?limit=200', { token: auth.rootToken });
  return res.body.entries.filter((e) => e.target?._id === targetId);
}

test('when an admin adds a passkey, then it is listed, it is their first factor with ten recovery codes, and it is audited', async () => {
  const a = await newAdmin('add');
  const { res } = await addPasskey(a.token);
  expect(res.status).toBe(201);
  expect(res.body.passkey.name).toBe('Work laptop');
  expect(res.body.recoveryCodes).toHaveLength(10);

  const status = await auth.api.call<{
    passkeys: Array<{ name: string; lastUsedAt: string | null }>;
    recoveryCodesLeft: number;
  }>('GET', '/api/auth/mfa', { token: a.token });
  expect(status.body.passkeys).toEqual([expect.objectContaining({ name: 'Work laptop', lastUsedAt: null })]);
  expect(status.body.recoveryCodesLeft).toBe(10);

  // A second passkey is not a first factor: no new recovery codes.
  const second = await addPasskey(a.token, new SoftwarePasskey(), 'Phone');
  expect(second.res.status).toBe(201);
  expect(second.res.body.recoveryCodes).toBeUndefined();

  const admins = await auth.api.call<{ admins: Array<{ _id: string; mfaEnabled: boolean }> }>(
    'GET',
    '/api/admin/admins',
    {
      token: auth.rootToken,
    },
  );
  expect(admins.body.admins.find((x) => x._id === a.id)?.mfaEnabled).toBe(true);
  const enrolled = (await auditActions(a.id)).filter((e) => e.action === 'admin.mfa-enrolled');
  expect(enrolled.map((e) => e.details)).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ method: 'passkey', name: 'Work laptop' }),
      expect.objectContaining({ method: 'passkey', name: 'Phone' }),
    ]),
  );
});

test('when a new passkey answers a challenge that was not handed out, comes from another origin, or is registered twice, then it is refused and nothing is added', async () => {
  const a = await newAdmin('add-hostile');
  const passkey = new SoftwarePasskey();
  const created = await options('/api/auth/mfa/passkeys/options', undefined, a.token);

  const forged = await auth.api.call<Refusal>('POST', '/api/auth/mfa/passkeys', {
    token: a.token,
    body: { name: 'Forged', passkey: passkey.register(created, { challenge: 'bm90LWhhbmRlZC1vdXQ' }) },
  });
  expect(forged.status).toBe(400);
  expect(forged.body.message).toBe('The passkey could not be verified. Please try again.');

  const elsewhere = await options('/api/auth/mfa/passkeys/options', undefined, a.token);
  const phishing = await auth.api.call('POST', '/api/auth/mfa/passkeys', {
    token: a.token,
    body: {
      name: 'Phished',
      passkey: passkey.register(elsewhere, { origin: 'https://readiness.example.net' }),
    },
  });
  expect(phishing.status).toBe(400);

  // Another admin's challenge is not this admin's.
  const b = await newAdmin('add-hostile-b');
  const theirs = await options('/api/auth/mfa/passkeys/options', undefined, b.token);
  const crossed = await auth.api.call('POST', '/api/auth/mfa/passkeys', {
    token: a.token,
    body: { name: 'Crossed', passkey: passkey.register(theirs) },
  });
  expect(crossed.status).toBe(400);

  expect((await addPasskey(a.token, passkey)).res.status).toBe(201);
  const twice = await addPasskey(a.token, passkey, 'Again');
  expect(twice.res.status).toBe(409);
  // The same credential under another account as well.
  expect((await addPasskey(b.token, passkey, 'Stolen')).res.status).toBe(409);

  const listed = await auth.api.call<{ passkeys: unknown[] }>('GET', '/api/auth/mfa', { token: a.token });
  expect(listed.body.passkeys).toHaveLength(1);
});

test('when the body of a passkey is malformed, oversized or carries control characters in its name, then it gets a clear 400', async () => {
  const a = await newAdmin('malformed');
  const passkey = new SoftwarePasskey();
  const created = await options('/api/auth/mfa/passkeys/options', undefined, a.token);
  const good = passkey.register(created);
  const cases: Array<[unknown, string]> = [
    [{ name: 'Laptop' }, 'Send the new passkey'],
    [{ name: '', passkey: good }, 'Name is required'],
    [{ name: 'x'.repeat(61), passkey: good }, 'Name must be at most 60 characters'],
    [{ name: 'Laptop', passkey: { ...good, type: 'password' } }, "Credential type must be 'public-key'"],
    [
      {
        name: 'Laptop',
        passkey: { ...good, response: { ...good.response, attestationObject: 'A'.repeat(40_001) } },
      },
      'attestationObject is too long',
    ],
    [
      {
        name: 'Laptop',
        passkey: { ...good, response: { ...good.response, clientDataJSON: 'not base64url!' } },
      },
      'clientDataJSON must be base64url',
    ],
  ];
  for (const [body, message] of cases) {
    const res = await auth.api.call<Refusal>('POST', '/api/auth/mfa/passkeys', { token: a.token, body });
    expect([res.status, res.body.message]).toEqual([400, message]);
  }
  const control = await auth.api.call<Refusal>('POST', '/api/auth/mfa/passkeys', {
    token: a.token,
    body: { name: 'Lap\u0000top', passkey: good },
  });
  expect(control.status).toBe(400);
  const listed = await auth.api.call<{ passkeys: unknown[] }>('GET', '/api/auth/mfa', { token: a.token });
  expect(listed.body.passkeys).toHaveLength(0);
});

test('when an admin with a passkey signs in with the password, then the passkey is asked for, opens one session, and its answer is never taken twice', async () => {
  const a = await newAdmin('second');
  const { passkey } = await addPasskey(a.token);

  const step = await passwordStep(a.email, a.password);
  expect(step.status).toBe(200);
  expect(step.body.token).toBeUndefined();
  expect(step.body.methods).toEqual(['passkey']);

  const asked = await options('/api/auth/login/mfa/passkey-options', { challenge: step.body.challenge });
  const answer = passkey.answer(asked);
  // The same answer five times at once: one session, the rest refused.
  const replies = await Promise.all(
    Array.from({ length: 5 }, () => secondStep({ challenge: step.body.challenge, passkey: answer })),
  );
  expect(replies.map((r) => r.status).sort()).toEqual([200, 401, 401, 401, 401]);
  const session = replies.find((r) => r.status === 200)!;
  expect(session.body.admin?.email).toBe(a.email);
  expect(session.body.recoveryCodes).toBeUndefined();

  const signedIn = (await auditActions(a.id)).filter((e) => e.action === 'admin.signed-in');
  expect(signedIn[0]?.details).toEqual(expect.objectContaining({ method: 'password+passkey' }));
  const used = await auth.api.call<{ passkeys: Array<{ lastUsedAt: string | null }> }>(
    'GET',
    '/api/auth/mfa',
    {
      token: session.body.token,
    },
  );
  expect(used.body.passkeys[0]?.lastUsedAt).not.toBeNull();
});

test("when a second step is answered by another admin's passkey, another origin or an answer to another ceremony, then it is refused", async () => {
  const a = await newAdmin('second-hostile');
  const b = await newAdmin('second-hostile-b');
  const mine = (await addPasskey(a.token)).passkey;
  const theirs = (await addPasskey(b.token)).passkey;

  const step = await passwordStep(a.email, a.password);
  const asked = await options('/api/auth/login/mfa/passkey-options', { challenge: step.body.challenge });
  const other = await secondStep({ challenge: step.body.challenge, passkey: theirs.answer(asked) });
  expect(other.status).toBe(401);

  const asked2 = await options('/api/auth/login/mfa/passkey-options', { challenge: step.body.challenge });
  const phishing = await secondStep({
    challenge: step.body.challenge,
    passkey: mine.answer(asked2, { origin: 'https://readiness.example.net' }),
  });
  expect(phishing.status).toBe(401);

  // An answer to the passwordless ceremony's challenge is not an answer to this admin's second step.
  const passwordless = await options('/api/auth/login/passkey/options');
  const wrongCeremony = await secondStep({
    challenge: step.body.challenge,
    passkey: mine.answer(passwordless),
  });
  expect(wrongCeremony.status).toBe(401);

  // Without a right password there is no challenge to ask a passkey for.
  const noChallenge = await auth.api.call('POST', '/api/auth/login/mfa/passkey-options', {
    body: { challenge: 'made-up-challenge' },
  });
  expect(noChallenge.status).toBe(401);

  // None of it used the challenge up: the right answer still opens the session.
  const asked3 = await options('/api/auth/login/mfa/passkey-options', { challenge: step.body.challenge });
  const right = await secondStep({ challenge: step.body.challenge, passkey: mine.answer(asked3) });
  expect(right.status).toBe(200);
});

test('when an admin signs in with a passkey alone, then a verified answer opens a session, and an unverified, unknown, cloned or replayed one does not', async () => {
  const a = await newAdmin('passwordless');
  const { passkey } = await addPasskey(a.token);

  const unverified = await passkeySignIn(
    passkey.answer(await options('/api/auth/login/passkey/options'), { verified: false }),
  );
  expect(unverified.status).toBe(401);

  const stranger = new SoftwarePasskey();
  const unknown = await passkeySignIn(stranger.answer(await options('/api/auth/login/passkey/options')));
  expect(unknown.status).toBe(401);
  expect(unknown.body.message).toBe(
    'This passkey is not registered with Readiness. Sign in with your email and password.',
  );

  const otherSite = await passkeySignIn(
    passkey.answer(await options('/api/auth/login/passkey/options'), { rpId: 'evil.example' }),
  );
  expect(otherSite.status).toBe(401);

  const asked = await options('/api/auth/login/passkey/options');
  const answer = passkey.answer(asked);
  const session = await passkeySignIn(answer);
  expect(session.status).toBe(200);
  expect(session.body.admin?.email).toBe(a.email);
  const me = await auth.api.call<{ admin: { email: string } }>('GET', '/api/auth/me', {
    token: session.body.token,
  });
  expect(me.body.admin.email).toBe(a.email);

  expect((await passkeySignIn(answer)).status).toBe(401);

  // A copy of the key that signs with an older counter: refused, as a cloned authenticator would be.
  const cloned = await passkeySignIn(
    passkey.answer(await options('/api/auth/login/passkey/options'), { signCount: 1 }),
  );
  expect(cloned.status).toBe(401);

  const signedIn = (await auditActions(a.id)).filter((e) => e.action === 'admin.signed-in');
  expect(signedIn.map((e) => e.details)).toContainEqual(expect.objectContaining({ method: 'passkey' }));
});

test('when the admin of a passkey is disabled, then the passkey signs nobody in', async () => {
  const a = await newAdmin('disabled');
  const { passkey } = await addPasskey(a.token);
  const disabled = await auth.api.call('PATCH', `/api/admin/admins/${a.id}/status`, {
    token: auth.rootToken,
    body: { status: 'disabled' },
  });
  expect(disabled.status).toBe(200);
  const refused = await passkeySignIn(passkey.answer(await options('/api/auth/login/passkey/options')));
  expect(refused.status).toBe(401);
  expect(refused.body.token).toBeUndefined();
});

test('when passkeys are removed, then the last factor stays under the policy, other admins cannot remove them, and a reset removes them all', async () => {
  const a = await newAdmin('remove');
  const b = await newAdmin('remove-b');
  const first = await addPasskey(a.token);
  const id = first.res.body.passkey.id;

  expect((await auth.api.call('DELETE', `/api/auth/mfa/passkeys/${id}`, { token: b.token })).status).toBe(
    404,
  );
  expect(
    (await auth.api.call('DELETE', '/api/auth/mfa/passkeys/not-a-uuid', { token: a.token })).status,
  ).toBe(404);

  await auth.api.call('PUT', '/api/admin/security-settings', {
    token: auth.rootToken,
    body: { mfaRequired: true },
  });
  try {
    const last = await auth.api.call<Refusal>('DELETE', `/api/auth/mfa/passkeys/${id}`, { token: a.token });
    expect(last.status).toBe(403);
    const second = await addPasskey(a.token, new SoftwarePasskey(), 'Phone');
    expect((await auth.api.call('DELETE', `/api/auth/mfa/passkeys/${id}`, { token: a.token })).status).toBe(
      204,
    );
    expect(
      (await passkeySignIn(first.passkey.answer(await options('/api/auth/login/passkey/options')))).status,
    ).toBe(401);

    const reset = await auth.api.call('POST', `/api/admin/admins/${a.id}/reset-mfa`, {
      token: auth.rootToken,
    });
    expect(reset.status).toBe(200);
    expect(
      (await passkeySignIn(second.passkey.answer(await options('/api/auth/login/passkey/options')))).status,
    ).toBe(401);
    const status = await auth.api.call<{ passkeys: unknown[]; recoveryCodesLeft: number }>(
      'GET',
      '/api/auth/mfa',
      {
        token: a.token,
      },
    );
    expect(status.body).toEqual(expect.objectContaining({ passkeys: [], recoveryCodesLeft: 0 }));
  } finally {
    await auth.api.call('PUT', '/api/admin/security-settings', {
      token: auth.rootToken,
      body: { mfaRequired: false },
    });
  }
  const removed = (await auditActions(a.id)).filter((e) => e.action === 'admin.mfa-disabled');
  expect(removed[0]?.details).toEqual(expect.objectContaining({ method: 'passkey', name: 'Work laptop' }));
});

test('when a key and its copy answer two challenges at the same moment with the same counter, then only one signs in', async () => {
  const a = await newAdmin('clone-race');
  const { passkey } = await addPasskey(a.token);
  const [first, second] = await Promise.all([
    options('/api/auth/login/passkey/options'),
    options('/api/auth/login/passkey/options'),
  ]);
  const count = passkey.signCount + 1;
  const both = await Promise.all([
    passkeySignIn(passkey.answer(first, { signCount: count })),
    passkeySignIn(passkey.answer(second, { signCount: count })),
  ]);
  expect(both.map((r) => r.status).sort()).toEqual([200, 401]);
});
