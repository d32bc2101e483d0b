jest.setTimeout(30_000);

import { eventually } from '@readiness/testing';
import { deliveryRows, passwordResetEvent, startNotification, type Harness } from './harness';

describe.each(['real', 'embedded'] as const)('password reset mail (%s infrastructure)', (kind) => {
  // One service a bus for the file's tests: each mails an address of its own and reads its own event's rows.
  let h: Harness;
  beforeAll(async () => {
    h = await startNotification(kind);
  });
  afterAll(async () => {
    await h.close();
  });
  const rowsOf = async (eventId: string) =>
    (await deliveryRows(h.database)).filter((r) => r.event_id === eventId);

  test('when a password-reset event arrives, then exactly one mail with the temporary password reaches the admin', async () => {
    const event = passwordResetEvent({ name: 'Ada <Lovelace>', temporaryPassword: 'Tmp-9fK2-xQ7w-Lp3Z' });
    await h.bus.publish([event]);

    const mail = await h.catcher.waitFor((m) => m.to.includes('ada@example.edu'), 10_000);
    expect(mail.subject).toBe('Your Readiness admin password was reset');
    expect(mail.text).toContain('Temporary password: Tmp-9fK2-xQ7w-Lp3Z');
    expect(mail.text).toContain('https://readiness.example.edu/admin/login');
    expect(mail.html).toContain('Tmp-9fK2-xQ7w-Lp3Z');
    // Data is escaped in HTML: a name cannot inject markup.
    expect(mail.html).toContain('Ada &lt;Lovelace&gt;');
    expect(mail.html).not.toContain('<Lovelace>');

    const rows = await eventually(async () => {
      const r = await rowsOf(event.id);
      return r[0]?.status === 'sent' ? r : false;
    });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      event_id: event.id,
      recipient: 'ada@example.edu',
      status: 'sent',
      attempts: 1,
    });
    // The delivery log never keeps the secret.
    expect(JSON.stringify(await deliveryRows(h.database))).not.toContain('Tmp-9fK2-xQ7w-Lp3Z');
  });

  test('when the same event is delivered three times, then one mail is sent', async () => {
    const event = passwordResetEvent({ email: 'thrice@example.edu' });
    await h.bus.publish([event]);
    await h.bus.publish([event]);
    await h.bus.publish([event]);
    await h.catcher.waitFor((m) => m.to.includes('thrice@example.edu'), 10_000);
    const other = passwordResetEvent({ email: 'marker@example.edu' });
    await h.bus.publish([other]);
    await h.catcher.waitFor((m) => m.to.includes('marker@example.edu'), 10_000);
    // Deliveries of one queue are processed with bounded concurrency; give stragglers time to land.
    await new Promise((r) => setTimeout(r, 300));
    expect(h.catcher.list().filter((m) => m.to.includes('thrice@example.edu'))).toHaveLength(1);
    expect(await rowsOf(event.id)).toHaveLength(1);
  });

  test('when the SMTP server is down, then the mail is retried and sent once it is back', async () => {
    h.smtpProxy.cut();
    const event = passwordResetEvent({ email: 'outage@example.edu' });
    try {
      await h.bus.publish([event]);
      await eventually(async () => {
        const [row] = await rowsOf(event.id);
        return row && row.attempts >= 1 && row.status === 'queued' ? row : false;
      });
    } finally {
      h.smtpProxy.restore();
    }
    const mail = await h.catcher.waitFor((m) => m.to.includes('outage@example.edu'), 10_000);
    expect(mail.subject).toBe('Your Readiness admin password was reset');
    const [row] = await eventually(async () => {
      const r = await rowsOf(event.id);
      return r[0]?.status === 'sent' ? r : false;
    });
    expect(row!.attempts).toBeGreaterThan(1);
    expect(row!.last_error).toBeNull();
  });
});

describe('password reset mail that never gets through', () => {
  test('when every attempt fails, then the delivery is failed with the reason and the event is dead-lettered', async () => {
    const h = await startNotification('embedded', { maxAttempts: 3 });
    try {
      h.smtpProxy.cut();
      const event = passwordResetEvent();
      await h.bus.publish([event]);
      const [row] = await eventually(async () => {
        const r = await deliveryRows(h.database);
        return r[0]?.status === 'failed' ? r : false;
      });
      expect(row).toMatchObject({ status: 'failed', attempts: 3 });
      expect(row!.last_error).toMatch(/temporarily unavailable/);
      const bus = h.bus as unknown as { deadLetters(queue: string): Array<{ id: string }> };
      await eventually(
        () => bus.deadLetters('notification.admin-password-reset').some((m) => m.id === event.id),
        'the dead letter',
      );
      expect(h.catcher.list()).toHaveLength(0);
    } finally {
      await h.close();
    }
  });
});
