jest.setTimeout(30_000);

import { randomUUID } from 'node:crypto';
import { FactorChange } from '@readiness/contracts';
import { eventually } from '@readiness/testing';
import { deliveryRows, factorChangedEvent, startNotification, type Harness } from './harness';

const NOT_YOU =
  'Not you? Someone else may be signed in to your account. Sign in, open Security under your name in the menu, choose “Sign out everywhere”, remove any passkey or authenticator app you do not recognise, and change your password. If you cannot sign in, ask a super administrator to reset your password: that also removes every passkey and authenticator app from your account.';

describe.each(['real', 'embedded'] as const)('factor changed mail (%s infrastructure)', (kind) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startNotification(kind);
  });
  afterAll(async () => {
    await h.close();
  });

  test('when a passkey is added to an admin, then exactly one mail tells them what, when, and what to do if it was not them', async () => {
    const event = factorChangedEvent({ factorName: 'Work <laptop>' });
    await h.bus.publish([event]);
    await h.bus.publish([event]);

    const mail = await h.catcher.waitFor((m) => m.subject === 'A passkey was added to your account', 10_000);
    expect(mail.to).toContain('ada@example.edu');
    expect(mail.text).toContain(
      'A passkey named “\u2068Work <laptop>\u2069” was added to your Readiness admin account on 3 March 2026 at 14:05 UTC.',
    );
    expect(mail.text).toContain(NOT_YOU);
    expect(mail.text).toContain('https://readiness.example.edu/admin/security');
    expect(mail.html).toContain('Work &lt;laptop&gt;');
    expect(mail.html).not.toContain('<laptop>');
    expect(mail.html).toContain('<bdi>Ada &lt;Lovelace&gt;</bdi>');

    const rows = await eventually(async () => {
      const r = (await deliveryRows(h.database)).filter((d) => d.event_id === event.id);
      return r[0]?.status === 'sent' ? r : false;
    });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ template: 'admin-factor-changed', recipient: 'ada@example.edu' });
  });

  test.each([
    [
      FactorChange.PASSKEY_REMOVED,
      'A passkey was removed from your account',
      'The passkey “\u2068Phone\u2069” was removed',
    ],
    [
      FactorChange.AUTHENTICATOR_ADDED,
      'An authenticator app was set up for your account',
      'An authenticator app was set up for your Readiness admin account',
    ],
    [
      FactorChange.AUTHENTICATOR_REMOVED,
      'The authenticator app was removed from your account',
      'Its codes no longer sign you in.',
    ],
    [
      FactorChange.RECOVERY_CODES_REPLACED,
      'New recovery codes were made for your account',
      'The codes you had before no longer work.',
    ],
  ])('when change %s arrives, then the mail says %s', async (change, subject, sentence) => {
    await h.bus.publish([factorChangedEvent({ change, factorName: 'Phone' })]);
    const mail = await h.catcher.waitFor((m) => m.subject === subject, 10_000);
    expect(mail.text).toContain(sentence);
    expect(mail.text).toContain(NOT_YOU);
  });

  test('when a super admin resets the factors, then the mail names them', async () => {
    await h.bus.publish([
      factorChangedEvent({
        change: FactorChange.FACTORS_RESET,
        actorId: randomUUID(),
        actorName: 'Grace Hopper',
      }),
    ]);
    const mail = await h.catcher.waitFor((m) => m.subject === 'Your two-factor sign-in was reset', 10_000);
    expect(mail.text).toContain(
      '\u2068Grace Hopper\u2069, a super administrator, removed every passkey, the authenticator app and the recovery codes',
    );
  });
});
