/*
 * Webhook endpoints (the integrations service's) in the audit log, and an endpoint the product disabled after it
 * failed for the give-up time told to every active super admin: auth, which alone knows them, asks the
 * notification service for one mail each, and the mails arrive once, whatever the redeliveries.
 */
import { randomUUID } from 'node:crypto';
import { encodePayload, timestampFromDate, WebhookEndpointChange } from '@readiness/contracts';
import { startMailCatcher, type MailCatcher } from '@readiness/dev-servers';
import type { BusMessage } from '@readiness/kit/bus';
import { createMailer, type Mailer } from '@readiness/kit/mail';
import { notificationService } from '@readiness/notification';
import { eventually, startServiceUnderTest, type ServiceUnderTest } from '@readiness/testing';
import { ROOT, client, logger, startAuth, uniqueEmail, type Harness } from './harness';

jest.setTimeout(60_000);

interface Entry {
  actor: { _id: string; name: string; email: string } | null;
  action: string;
  target: { _id: string; name: string; email: string } | null;
  details: Record<string, unknown>;
}

const ORIGIN = 'https://readiness.example.edu';
let h: Harness;
let api: ReturnType<typeof client>;
let root: string;
let rootId: string;
let notification: ServiceUnderTest<unknown, unknown, never>;
let catcher: MailCatcher;
let mailer: Mailer;

beforeAll(async () => {
  h = await startAuth('embedded', {}, logger, ['auth.admin-alert.requested.v1']);
  api = client(h.url);
  root = await api.login(ROOT.email, ROOT.password);
  rootId = (await api.call<{ admin: { _id: string } }>('GET', '/api/auth/me', { token: root })).body.admin
    ._id;
  catcher = await startMailCatcher();
  mailer = createMailer({ smtpUrl: catcher.url, from: 'Readiness <no-reply@readiness.test>', logger });
  notification = (await startServiceUnderTest(notificationService, {
    kind: 'embedded',
    config: { PUBLIC_ORIGIN: ORIGIN },
    mailer,
    s3: true,
  })) as unknown as typeof notification;
});

afterAll(async () => {
  await notification?.close();
  mailer?.close();
  await catcher?.close();
  await h?.close();
});

/** An admin the seeded super admin creates, with `role`; disabled afterwards when `disabled`. */
async function admin(label: string, role: 'admin' | 'super_admin', disabled = false) {
  const email = uniqueEmail(label);
  const created = await api.call<{ admin: { _id: string } }>('POST', '/api/admin/admins', {
    token: root,
    body: { name: `Admin ${label}`, email, password: 'Right-pass-42', role },
  });
  expect(created.status).toBe(201);
  if (disabled) {
    const res = await api.call('PATCH', `/api/admin/admins/${created.body.admin._id}/status`, {
      token: root,
      body: { status: 'disabled' },
    });
    expect(res.status).toBe(200);
  }
  return email;
}

/** The integrations service's event for an endpoint it disabled after failing, as its outbox writes it. */
function disabledEvent(url: string, lastAnswer: string): BusMessage {
  return {
    id: randomUUID(),
    name: 'integrations.webhook-endpoint.disabled.v1',
    occurredAt: new Date(),
    source: 'integrations',
    payload: encodePayload('integrations.webhook-endpoint.disabled.v1', {
      $typeName: 'readiness.events.v1.WebhookEndpointDisabled',
      endpointId: randomUUID(),
      url,
      description: 'Admissions <CRM>',
      failingSince: timestampFromDate(new Date('2026-12-01T10:00:00Z')),
      disabledAt: timestampFromDate(new Date('2026-12-04T10:00:00Z')),
      lastStatus: 503,
      lastAnswer,
      reason: `Failed for 72 h; last answer: 503 ${lastAnswer}`,
    }),
  };
}

const log = async (query: string) =>
  (await api.call<{ entries: Entry[] }>('GET', `/api/admin/audit-log${query}`, { token: root })).body.entries;

it('when a webhook endpoint is disabled after failing, then every active super admin, and nobody else, is mailed once which endpoint, since when, its last answer and the link to the Webhooks screen', async () => {
  const otherSuperAdmin = await admin('webhook-super', 'super_admin');
  const disabledSuperAdmin = await admin('webhook-gone', 'super_admin', true);
  const plainAdmin = await admin('webhook-plain', 'admin');
  const url = `https://crm-${randomUUID().slice(0, 8)}.example.edu/readiness/events`;
  const event = disabledEvent(url, 'busy, try later <script>alert(1)</script>');
  await h.bus.publish([event]);
  // Redelivered: no more requests.
  await h.bus.publish([event]);

  const requested = () =>
    h.eventsNamed('auth.admin-alert.requested.v1').filter((e) => e.payload.causeEventId === event.id);
  await eventually(() => requested().length >= 2 || false, 'a mail request per active super admin');
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(
    requested()
      .map((e) => e.payload.email)
      .sort(),
  ).toEqual([ROOT.email, otherSuperAdmin].sort());
  expect(requested()[0]!.payload.alert).toMatchObject({ case: 'webhookEndpointDisabled', value: { url } });

  // The requests, as the broker hands them to the notification service: one of them twice.
  const asDelivered = requested().map((e): BusMessage => ({
    id: e.id,
    name: e.name,
    occurredAt: new Date(),
    source: 'auth',
    payload: encodePayload('auth.admin-alert.requested.v1', e.payload),
  }));
  await notification.bus.publish([...asDelivered, asDelivered[0]!]);
  const subject = 'A webhook endpoint was disabled after failing';
  const mails = () => catcher.list().filter((m) => m.subject === subject && m.text.includes(url));
  await eventually(() => mails().length >= 2 || false, 'the mails');
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(
    mails()
      .flatMap((m) => m.to)
      .sort(),
  ).toEqual([ROOT.email, otherSuperAdmin].sort());
  for (const nobody of [disabledSuperAdmin, plainAdmin]) {
    expect(catcher.list().some((m) => m.to.includes(nobody))).toBe(false);
  }
  const [mail] = mails();
  expect(mail!.text).toContain(
    `Readiness stopped sending events to the webhook endpoint ${url} (\u2068Admissions <CRM>\u2069) on 4 December 2026 at 10:00 UTC: it had answered nothing but failures since 1 December 2026 at 10:00 UTC.`,
  );
  expect(mail!.text).toContain('The last answer was HTTP 503:\nbusy, try later <script>alert(1)</script>');
  expect(mail!.text).toContain(`The Webhooks screen: ${ORIGIN}/admin/webhooks`);
  expect(mail!.html).toContain(`href="${ORIGIN}/admin/webhooks"`);
  expect(mail!.html).toContain('busy, try later &lt;script&gt;alert(1)&lt;/script&gt;');
  expect(mail!.html).not.toContain('<script>');
});

it('when a super admin changes a webhook endpoint, or the product disables it, then the audit log shows each once, naming the admin and the endpoint by its URL', async () => {
  const url = `https://warehouse-${randomUUID().slice(0, 8)}.example.edu/hooks`;
  const endpointId = randomUUID();
  const changes = [
    WebhookEndpointChange.ADDED,
    WebhookEndpointChange.UPDATED,
    WebhookEndpointChange.DISABLED,
    WebhookEndpointChange.ENABLED,
    WebhookEndpointChange.SECRET_ROTATED,
    WebhookEndpointChange.DELETED,
  ];
  for (const change of changes) {
    const sent = await h.publish('integrations.webhook-endpoint.changed.v1', {
      endpointId,
      url,
      description: 'Data warehouse',
      events: ['result.recorded'],
      change,
      actorId: rootId,
    });
    if (change === WebhookEndpointChange.ADDED) await h.bus.publish([sent]);
  }
  const failing = disabledEvent(url, 'gateway timeout');
  await h.bus.publish([failing, failing]);

  const query = `?q=${encodeURIComponent(url)}&limit=200`;
  await eventually(async () => (await log(query)).length >= 7 || false, 'the endpoint entries');
  await new Promise((resolve) => setTimeout(resolve, 300));
  const entries = await log(query);
  expect(entries.map((e) => e.action).sort()).toEqual(
    [
      'webhook.endpoint-added',
      'webhook.endpoint-updated',
      'webhook.endpoint-disabled',
      'webhook.endpoint-enabled',
      'webhook.endpoint-secret-rotated',
      'webhook.endpoint-deleted',
      'webhook.endpoint-disabled-failing',
    ].sort(),
  );
  for (const e of entries) expect(e.target).toEqual({ _id: expect.any(String), name: url, email: '' });
  const byAdmin = entries.filter((e) => e.action !== 'webhook.endpoint-disabled-failing');
  for (const e of byAdmin) {
    expect(e.actor).toEqual({ _id: rootId, name: 'Super Admin', email: ROOT.email });
    expect(e.details).toEqual({ description: 'Data warehouse', events: ['result.recorded'] });
  }
  // The product's own disabling: nobody's action, with why.
  expect(entries.find((e) => e.action === 'webhook.endpoint-disabled-failing')).toMatchObject({
    actor: null,
    details: {
      description: 'Admissions <CRM>',
      reason: 'Failed for 72 h; last answer: 503 gateway timeout',
      failingSince: '2026-12-01T10:00:00.000Z',
    },
  });
  // Filtered by action, as the Audit log screen's filter asks.
  expect(await log(`?action=webhook.endpoint-secret-rotated&q=${encodeURIComponent(url)}`)).toHaveLength(1);
});
