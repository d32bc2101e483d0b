jest.setTimeout(30_000);

import { randomUUID } from 'node:crypto';
import { encodePayload, timestampFromDate } from '@readiness/contracts';
import type { BusMessage } from '@readiness/kit/bus';
import { eventually } from '@readiness/testing';
import { deliveryRows, startNotification, type Harness } from './harness';

/** auth's request to tell one super admin that the integrations service disabled a failing webhook endpoint. */
function alertEvent(fields: {
  email: string;
  lastStatus: number;
  lastAnswer: string;
  description?: string;
}): BusMessage {
  return {
    id: randomUUID(),
    name: 'auth.admin-alert.requested.v1',
    occurredAt: new Date(),
    source: 'auth',
    payload: encodePayload('auth.admin-alert.requested.v1', {
      $typeName: 'readiness.events.v1.AdminAlertRequested',
      adminId: randomUUID(),
      name: 'Grace <Hopper>',
      email: fields.email,
      causeEventId: randomUUID(),
      alert: {
        case: 'webhookEndpointDisabled',
        value: {
          $typeName: 'readiness.events.v1.WebhookEndpointDisabled',
          endpointId: randomUUID(),
          url: 'https://crm.example.edu/readiness?source=<lms>',
          description: fields.description ?? '',
          failingSince: timestampFromDate(new Date('2026-12-01T10:00:00Z')),
          disabledAt: timestampFromDate(new Date('2026-12-04T10:00:00Z')),
          lastStatus: fields.lastStatus,
          lastAnswer: fields.lastAnswer,
          reason: 'Failed for 72 h',
        },
      },
    }),
  };
}

describe('webhook endpoint disabled mail', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startNotification('embedded');
  });
  afterAll(async () => {
    await h.close();
  });

  test('when auth asks a super admin to be told of an endpoint disabled after failing, then exactly one mail says which, since when, its last answer and where to enable it', async () => {
    const event = alertEvent({
      email: 'grace@example.edu',
      lastStatus: 500,
      lastAnswer: '<h1>Internal error</h1>',
    });
    await h.bus.publish([event]);
    await h.bus.publish([event]);

    const mail = await h.catcher.waitFor((m) => m.to.includes('grace@example.edu'), 10_000);
    expect(mail.subject).toBe('A webhook endpoint was disabled after failing');
    expect(mail.text).toContain('Hello \u2068Grace <Hopper>\u2069,');
    expect(mail.text).toContain(
      'Readiness stopped sending events to the webhook endpoint https://crm.example.edu/readiness?source=<lms> on 4 December 2026 at 10:00 UTC: it had answered nothing but failures since 1 December 2026 at 10:00 UTC.',
    );
    expect(mail.text).toContain('The last answer was HTTP 500:\n<h1>Internal error</h1>');
    expect(mail.text).toContain('The Webhooks screen: https://readiness.example.edu/admin/webhooks');
    expect(mail.html).toContain('&lt;h1&gt;Internal error&lt;/h1&gt;');
    expect(mail.html).toContain('source=&lt;lms&gt;');
    expect(mail.html).not.toContain('<h1>');

    const rows = await eventually(async () => {
      const r = (await deliveryRows(h.database)).filter((d) => d.event_id === event.id);
      return r[0]?.status === 'sent' ? r : false;
    });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ template: 'webhook-endpoint-disabled', recipient: 'grace@example.edu' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(h.catcher.list().filter((m) => m.to.includes('grace@example.edu'))).toHaveLength(1);
  });

  test('when the last try got no answer, then the mail says so and gives the reason, with the description', async () => {
    await h.bus.publish([
      alertEvent({
        email: 'ada@example.edu',
        lastStatus: 0,
        lastAnswer: 'connect ECONNREFUSED 203.0.113.9:443',
        description: 'Admissions CRM',
      }),
    ]);
    const mail = await h.catcher.waitFor((m) => m.to.includes('ada@example.edu'), 10_000);
    expect(mail.text).toContain(
      'webhook endpoint https://crm.example.edu/readiness?source=<lms> (\u2068Admissions CRM\u2069) on',
    );
    expect(mail.text).toContain('The last try got no answer:\nconnect ECONNREFUSED 203.0.113.9:443');
  });
});
