/*
 * Issue 23, item 2 (TOTP and passkeys) in a real browser against the product as `make start` runs it: an admin sets up an
 * authenticator app from their own Security page (QR code and the key written out, confirmed by a first code,
 * ten recovery codes shown once), signs out, cannot sign in with the password alone, signs in with a code, and a
 * recovery code works once. A super admin resets an admin's factors from the admin management screen, and requires
 * a second factor of everyone: an admin without one sets it up as they sign in. The Security page gets an
 * accessibility scan at 1280 and 360 px.
 *
 * Every call of a sign-in step counts against the gateway's sign-in limit for the one loopback address; the file
 * makes more of them than the default limit of 20 a minute allows, so it runs on the browser lane's shared product,
 * which allows more (shared-product.ts; the limit itself is tested by the gateway's own tests), and the super admin's
 * API token is taken once for the whole file. Its admins' addresses are its own: other files share the product.
 */
import path from 'node:path';
import { generateSync } from 'otplib';
import { Client } from 'pg';
import type { Page } from 'playwright-core';
import {
  DESKTOP,
  MOBILE,
  SUPER,
  api,
  atPath,
  expectAccessible,
  isolated,
  saveScreenshot,
  shown,
  signIn,
  productForFile,
  submitLogin,
  toast,
  waitForMail,
} from './support';

jest.setTimeout(180_000);

const HEDY = { name: 'Hedy Lamarr', email: 'hedy@example.edu', password: 'frequency-hopping-1942' };
const RADIA = { name: 'Radia Perlman', email: 'radia@example.edu', password: 'spanning-tree-1985' };
const MARY = { name: 'Mary Jackson', email: 'mary@example.edu', password: 'wind-tunnel-1958' };
const ADA = { name: 'Ada Lovelace', email: 'ada.passkey@example.edu', password: 'analytical-engine-1843' };
const GRACE = { name: 'Grace Hopper', email: 'grace.stepup@example.edu', password: 'compiler-cobol-1959' };

const file = productForFile();
const freshPage = () => file.page();
let superToken: string;

beforeAll(async () => {
  superToken = (await login(SUPER.email, SUPER.password)).body.token!;
});

/**
 * A page at the product's own name, `localhost` (its PUBLIC_ORIGIN), where passkeys are made and used: WebAuthn
 * binds a passkey to a host name, never to an IP address. Chromium's virtual authenticator stands in for the
 * device's: it keeps discoverable credentials and verifies the person (as a fingerprint would) without a prompt.
 */
async function pageWithAuthenticator(): Promise<Page> {
  const { context, page } = await file.open(DESKTOP, file.url.replace('127.0.0.1', 'localhost'));
  const devtools = await context.newCDPSession(page);
  await devtools.send('WebAuthn.enable');
  await devtools.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return page;
}

async function login(email: string, password: string) {
  return api<{ token?: string; mfaRequired?: boolean }>(file.url, 'POST', '/api/auth/login', {
    body: { email, password },
  });
}

/** A code of the step `offset` steps from now: the server takes one step of drift either way. */
const codeAt = (secret: string, offset = 0) =>
  generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + offset * 30 });

/** Signs in with the password, then `code` in place of the authenticator's; does not wait for the outcome. */
async function signInWithRecoveryCode(page: Page, admin: { email: string; password: string }, code: string) {
  await submitLogin(page, admin.email, admin.password);
  await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await page.getByLabel('Recovery code').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
}

const signOut = async (page: Page) => {
  await page.getByRole('button', { name: 'Logout' }).click();
  await atPath(page, '/admin/login');
};

test('when an admin enrols an authenticator app, then the password alone no longer signs in, a code does, and a recovery code works once', async () => {
  await file.createAdmin(HEDY, superToken);
  const page = await freshPage();
  await signIn(page, HEDY.email, HEDY.password);

  await page.getByRole('complementary', { name: 'Sidebar' }).getByRole('link', { name: 'Security' }).click();
  await atPath(page, '/admin/security');
  await shown(page.getByText('Protect your account with a code from an authenticator app', { exact: false }));
  await expectAccessible(page, 'security page, off');

  await page.getByRole('button', { name: 'Set up authenticator app' }).click();
  await shown(page.getByRole('img', { name: 'QR code to add Readiness to your authenticator app' }));
  const secret = (await page.locator('.totp-setup__key').innerText()).replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expectAccessible(page, 'security page, setting up');

  // The code of this step: accepted until the step after the next (the server allows one step either side), however
  // slow a busy machine is between the fill and the answer. The sign-in below brings the next step's, always newer.
  await page.getByLabel('Authentication code').fill(codeAt(secret));
  await page.getByRole('button', { name: 'Verify and turn on' }).click();
  await shown(page.getByRole('heading', { name: 'Your recovery codes' }));
  const recoveryCodes = await page.locator('.recovery-codes__list code').allInnerTexts();
  expect(recoveryCodes).toHaveLength(10);
  await expectAccessible(page, 'security page, recovery codes');
  await page.getByRole('button', { name: 'Done' }).click();
  await shown(page.getByText('10 recovery codes left.'));

  await page.setViewportSize(MOBILE);
  await expectAccessible(page, 'security page at 360 px');
  await page.setViewportSize(DESKTOP);
  await signOut(page);

  // The password alone: a challenge, no token, and the app stays on the login page.
  const passwordOnly = await login(HEDY.email, HEDY.password);
  expect(passwordOnly.body.mfaRequired).toBe(true);
  expect(passwordOnly.body.token).toBeUndefined();
  await submitLogin(page, HEDY.email, HEDY.password);
  await shown(page.getByText('Enter the 6-digit code from your authenticator app.'));
  await expectAccessible(page, 'login, second step');
  expect(await page.evaluate(() => localStorage.getItem('admin_token'))).toBeNull();
  await page.goto('/admin/dashboard');
  await atPath(page, '/admin/login');

  await submitLogin(page, HEDY.email, HEDY.password);
  await page.getByLabel('Authentication code').fill(codeAt(secret, 1));
  await page.getByRole('button', { name: 'Verify' }).click();
  await atPath(page, '/admin/dashboard');
  await signOut(page);

  await signInWithRecoveryCode(page, HEDY, recoveryCodes[0]!);
  await atPath(page, '/admin/dashboard');
  await signOut(page);

  await signInWithRecoveryCode(page, HEDY, recoveryCodes[0]!);
  await shown(page.getByText('The recovery code is not valid or has already been used.'));
  expect(new URL(page.url()).pathname).toBe('/admin/login');
  expect(await page.evaluate(() => localStorage.getItem('admin_token'))).toBeNull();
});

test("when a super admin resets an admin's factors after confirming, then the admin's password alone signs in again", async () => {
  await file.createAdmin(RADIA, superToken);
  const token = (await login(RADIA.email, RADIA.password)).body.token;
  const started = await api<{ secret: string }>(file.url, 'POST', '/api/auth/mfa/totp', { token });
  const confirmed = await api(file.url, 'POST', '/api/auth/mfa/totp/confirm', {
    token,
    body: { code: codeAt(started.body.secret) },
  });
  expect(confirmed.status).toBe(200);
  expect((await login(RADIA.email, RADIA.password)).body.mfaRequired).toBe(true);

  const page = await freshPage();
  await signIn(page, SUPER.email, SUPER.password);
  await page.goto('/admin/admins');
  const row = page.getByRole('row').filter({ hasText: RADIA.email });
  await row.getByRole('button', { name: `Reset two-factor authentication for ${RADIA.name}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Reset Two-Factor Authentication' });
  await shown(dialog);
  await expectAccessible(page, 'reset two-factor confirmation');
  await dialog.getByRole('button', { name: 'Reset' }).click();
  await shown(toast(page, `Two-factor authentication reset for ${RADIA.name}`));

  expect(typeof (await login(RADIA.email, RADIA.password)).body.token).toBe('string');
});

test('when a super admin requires two-factor authentication, then an admin without it sets up an app as they sign in, before reaching anything', async () => {
  await file.createAdmin(MARY, superToken);
  const owner = await freshPage();
  await signIn(owner, SUPER.email, SUPER.password);
  await owner.goto('/admin/security');
  const policy = owner.getByLabel('Require two-factor authentication for every admin');
  // Ticked, it asks first: the box is ticked once confirmed.
  await policy.click();
  const confirm = owner.getByRole('dialog', { name: 'Require two-factor authentication' });
  await shown(confirm.getByText('Sessions already open are not ended.'));
  await saveScreenshot(owner, 'require-two-factor-dialog', 'desktop', true);
  await confirm.getByRole('button', { name: 'Require for every admin' }).click();
  await shown(toast(owner, 'Two-factor authentication is now required for every admin'));
  expect(await policy.isChecked()).toBe(true);
  await expectAccessible(owner, 'security page of a super admin');

  try {
    const page = await freshPage();
    await page.goto('/admin/login');
    await submitLogin(page, MARY.email, MARY.password);
    await shown(page.getByRole('heading', { name: 'Set up two-factor authentication' }));
    const secret = (await page.locator('.totp-setup__key').innerText()).replace(/\s+/g, '');
    await expectAccessible(page, 'login, setting up the required second factor');
    expect(await page.evaluate(() => localStorage.getItem('admin_token'))).toBeNull();

    await page.getByLabel('Authentication code').fill(codeAt(secret));
    await page.getByRole('button', { name: 'Verify and continue' }).click();
    await shown(page.getByRole('heading', { name: 'Your recovery codes' }));
    expect(await page.locator('.recovery-codes__list code').count()).toBe(10);
    expect(new URL(page.url()).pathname).toBe('/admin/login');
    await page.getByRole('button', { name: 'Continue' }).click();
    await atPath(page, '/admin/dashboard');
  } finally {
    await api(file.url, 'PUT', '/api/admin/security-settings', {
      token: superToken,
      body: { mfaRequired: false },
    });
  }
});

test('when an admin adds a passkey, then it is asked for after the password, it signs in alone, and once removed it signs nobody in', async () => {
  await file.createAdmin(ADA, superToken);
  const page = await pageWithAuthenticator();
  await signIn(page, ADA.email, ADA.password);
  await page.goto('/admin/security');
  const passkeys = page.getByRole('region', { name: 'Passkeys' });
  await shown(page.getByText('No passkeys yet'));
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await page.getByLabel('Passkey name').fill('Work laptop');
  await expectAccessible(page, 'security page, naming a passkey');
  await page.getByRole('button', { name: 'Create passkey' }).click();
  await shown(toast(page, "Passkey 'Work laptop' added"));
  // The first second factor: the recovery codes come with it, shown once.
  await shown(page.getByRole('heading', { name: 'Your recovery codes' }));
  expect(await page.locator('.recovery-codes__list code').count()).toBe(10);
  await page.getByRole('button', { name: 'Done' }).click();
  await shown(passkeys.getByRole('cell', { name: 'Work laptop' }));
  await shown(passkeys.getByRole('cell', { name: 'Never' }));
  await expectAccessible(page, 'security page with a passkey');
  await saveScreenshot(page, 'security-passkeys', 'desktop');
  await page.setViewportSize(MOBILE);
  await expectAccessible(page, 'security page with a passkey at 360 px');
  await saveScreenshot(page, 'security-passkeys', 'mobile');
  await page.setViewportSize(DESKTOP);
  await signOut(page);

  // The password alone is not enough: the passkey is the second step.
  expect((await login(ADA.email, ADA.password)).body.token).toBeUndefined();
  await submitLogin(page, ADA.email, ADA.password);
  await shown(page.getByText('Use the passkey on this device, your phone or your security key.'));
  await expectAccessible(page, 'login, passkey as the second step');
  await saveScreenshot(page, 'login-passkey-second-step', 'desktop');
  await page.getByRole('button', { name: 'Use passkey' }).click();
  await atPath(page, '/admin/dashboard');
  await signOut(page);

  // No password at all: the passkey signs in on its own.
  await saveScreenshot(page, 'login-passkey', 'desktop');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await atPath(page, '/admin/dashboard');
  await shown(toast(page, `Welcome back, ${ADA.name}!`));

  await page.goto('/admin/security');
  await shown(passkeys.getByRole('cell', { name: 'Work laptop' }));
  await page.getByRole('button', { name: 'Remove passkey Work laptop' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove passkey' });
  await shown(dialog);
  await expectAccessible(page, 'remove passkey confirmation');
  await dialog.getByRole('button', { name: 'Remove passkey' }).click();
  await shown(toast(page, "Passkey 'Work laptop' removed"));
  await shown(page.getByText('No passkeys yet'));
  await signOut(page);

  // The device still holds the credential; Readiness no longer knows it.
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await shown(
    toast(page, 'This passkey is not registered with Readiness. Sign in with your email and password.'),
  );
  expect(new URL(page.url()).pathname).toBe('/admin/login');
  expect(await page.evaluate(() => localStorage.getItem('admin_token'))).toBeNull();
  // With no second factor left, the password alone signs in again.
  expect(typeof (await login(ADA.email, ADA.password)).body.token).toBe('string');
});

/**
 * Moves the admin's proofs of the person (their sign-ins, their step-ups) back past the window, as if they signed
 * in long ago, in the product's own database (the embedded PostgreSQL of its data folder, reached by its socket).
 */
async function proofsExpire(email: string): Promise<void> {
  const db = new Client({
    host: path.join(file.product.dataDir, 'postgres'),
    user: 'postgres',
    database: 'auth',
  });
  await db.connect();
  try {
    await db.query(
      `UPDATE admin_sessions SET reauthenticated_at = now() - interval '1 hour'
       WHERE admin_id = (SELECT id FROM admins WHERE email = $1)`,
      [email],
    );
  } finally {
    await db.end();
  }
}

test("when an admin whose sign-in is long past adds a passkey, then 'Confirm it's you' asks for the password first, a wrong one is refused at the field, and the right one carries on with the passkey, mailed to them", async () => {
  await file.createAdmin(GRACE, superToken);
  const page = await pageWithAuthenticator();
  await signIn(page, GRACE.email, GRACE.password);
  await page.goto('/admin/security');
  await shown(page.getByText('No passkeys yet'));
  await proofsExpire(GRACE.email);

  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await page.getByLabel('Passkey name').fill('Office desktop');
  await page.getByRole('button', { name: 'Create passkey' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm it’s you' });
  await shown(dialog);
  // The focus is in the password field, so the admin types at once.
  await shown(dialog.getByLabel('Your password').and(page.locator(':focus')));
  await expectAccessible(page, 'confirm it is you');
  await saveScreenshot(page, 'security-confirm-it-is-you', 'desktop');
  await page.setViewportSize(MOBILE);
  await expectAccessible(page, 'confirm it is you at 360 px');
  await saveScreenshot(page, 'security-confirm-it-is-you', 'mobile');
  await page.setViewportSize(DESKTOP);

  await page.keyboard.type('not-my-password');
  await page.keyboard.press('Enter');
  await shown(dialog.getByText('The password is not correct.'));
  await dialog.getByLabel('Your password').fill(GRACE.password);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await shown(toast(page, "Passkey 'Office desktop' added"));
  expect(await dialog.count()).toBe(0);
  await shown(page.getByRole('heading', { name: 'Your recovery codes' }));
  await page.getByRole('button', { name: 'Done' }).click();
  await shown(page.getByRole('region', { name: 'Passkeys' }).getByRole('cell', { name: 'Office desktop' }));

  const mail = await waitForMail(
    file.url,
    GRACE.email,
    (m) => m.subject === 'A passkey was added to your account',
  );
  expect(mail.text).toContain(
    `A passkey named “${isolated('Office desktop')}” was added to your Readiness admin account`,
  );
  expect(mail.text).toContain('Not you?');

  // Past the window again: the next change asks once more, and closing the dialog changes nothing.
  await proofsExpire(GRACE.email);
  await page.getByRole('button', { name: 'Make new recovery codes' }).click();
  await page
    .getByRole('dialog', { name: 'Make new recovery codes?' })
    .getByRole('button', { name: 'Make new recovery codes' })
    .click();
  await shown(dialog);
  await page.keyboard.press('Escape');
  expect(await dialog.count()).toBe(0);
  expect(await page.getByRole('heading', { name: 'Your recovery codes' }).count()).toBe(0);
});
