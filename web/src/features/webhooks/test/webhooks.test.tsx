import { screen, waitFor, within } from '@testing-library/react';
import { superAdmin } from '../../../testing/fixtures';
import { expectErrorAtField } from '../../../testing/fields';
import { answer, refusal } from '../../../testing/answer';
import { http } from '../../../testing/openapi-http';
import { renderApp } from '../../../testing/render';
import { openSession, server } from '../../../testing/server';
import type { WebhookDelivery, WebhookEndpoint } from '../api/webhooks-api';

/** The integrations service's webhooks, in memory: one endpoint with two deliveries to start with. */
const EVENT_TYPES = [
  'result.recorded',
  'certificate.issued',
  'student.invited',
  'student.started',
  'student.deleted',
];
const crm: WebhookEndpoint = {
  id: 'w-1',
  url: 'https://crm.example.edu/hooks/readiness',
  description: 'Admissions CRM',
  events: ['result.recorded'],
  disabled: false,
  disabledReason: null,
  failingSince: null,
  createdAt: '2026-12-01T09:00:00.000Z',
  updatedAt: '2026-12-01T09:00:00.000Z',
};
const delivery = (over: Partial<WebhookDelivery>): WebhookDelivery => ({
  id: 'd-1',
  eventType: 'result.recorded',
  state: 'sent',
  tries: 1,
  lastStatus: 204,
  lastAnswer: '',
  lastLatencyMs: 87,
  lastTriedAt: '2026-12-01T10:00:00.000Z',
  nextTryAt: '2026-12-01T10:00:00.000Z',
  sentAt: '2026-12-01T10:00:00.000Z',
  createdAt: '2026-12-01T10:00:00.000Z',
  ...over,
});

let endpoints: WebhookEndpoint[];
let deliveries: WebhookDelivery[];
let secrets: number;
const sentAgain: string[] = [];

beforeEach(() => {
  endpoints = [{ ...crm }];
  deliveries = [
    delivery({
      id: 'd-2',
      state: 'pending',
      tries: 3,
      lastStatus: 503,
      lastAnswer: 'busy, try later',
      lastLatencyMs: 12,
      sentAt: null,
      lastTriedAt: '2026-12-01T11:00:00.000Z',
      nextTryAt: '2026-12-01T11:05:00.000Z',
    }),
    delivery({}),
  ];
  secrets = 0;
  sentAgain.length = 0;
  server.use(
    http.get('/api/admin/webhooks', () =>
      answer('/api/admin/webhooks', 'get', { endpoints, eventTypes: EVENT_TYPES }),
    ),
    http.post('/api/admin/webhooks', async ({ request }) => {
      const body = await request.json();
      const endpoint = {
        ...crm,
        id: `w-${endpoints.length + 1}`,
        url: body.url,
        events: body.events,
        description: body.description ?? '',
      };
      endpoints.push(endpoint);
      secrets++;
      return answer(
        '/api/admin/webhooks',
        'post',
        { endpoint, secret: `whsec_secret${secrets}` },
        { status: 201 },
      );
    }),
    http.post('/api/admin/webhooks/{id}/rotate-secret', ({ params }) => {
      secrets++;
      return answer('/api/admin/webhooks/{id}/rotate-secret', 'post', {
        endpoint: endpoints.find((e) => e.id === params.id)!,
        secret: `whsec_secret${secrets}`,
      });
    }),
    http.put('/api/admin/webhooks/{id}', async ({ params, request }) => {
      const body = await request.json();
      const endpoint = endpoints.find((e) => e.id === params.id)!;
      Object.assign(endpoint, body, { disabledReason: body.disabled ? 'Disabled by an admin' : null });
      return answer('/api/admin/webhooks/{id}', 'put', { endpoint });
    }),
    http.delete('/api/admin/webhooks/{id}', ({ params, response }) => {
      endpoints = endpoints.filter((e) => e.id !== params.id);
      return response(204).empty();
    }),
    http.post('/api/admin/webhooks/{id}/test', () => {
      deliveries.unshift(delivery({ id: 'd-test', eventType: 'webhook.test' }));
      return answer('/api/admin/webhooks/{id}/test', 'post', { deliveryId: 'd-test' }, { status: 202 });
    }),
    http.get('/api/admin/webhooks/{id}/deliveries', () =>
      answer('/api/admin/webhooks/{id}/deliveries', 'get', { deliveries }),
    ),
    http.post('/api/admin/webhooks/{id}/deliveries/{deliveryId}/send', ({ params }) => {
      sentAgain.push(params.deliveryId);
      const again = deliveries.find((d) => d.id === params.deliveryId)!;
      Object.assign(again, { state: 'sent', tries: again.tries + 1, lastStatus: 200, lastAnswer: 'thanks' });
      return answer(
        '/api/admin/webhooks/{id}/deliveries/{deliveryId}/send',
        'post',
        { delivery: again },
        { status: 202 },
      );
    }),
  );
});

async function openWebhooks() {
  const app = renderApp('/admin/webhooks', { token: openSession(superAdmin._id) });
  await screen.findByRole('table', { name: 'Webhook endpoints' });
  return app;
}

type User = Awaited<ReturnType<typeof openWebhooks>>['user'];

async function addEndpoint(user: User, url: string) {
  await user.click(screen.getByRole('button', { name: 'Add endpoint' }));
  const dialog = screen.getByRole('dialog', { name: 'Add webhook endpoint' });
  await user.type(within(dialog).getByLabelText('URL'), url);
  await user.click(within(dialog).getByRole('checkbox', { name: /student\.invited/ }));
  await user.click(within(dialog).getByRole('checkbox', { name: /result\.recorded/ }));
  await user.type(within(dialog).getByLabelText('Description'), 'Data warehouse');
  await user.click(within(dialog).getByRole('button', { name: 'Add endpoint' }));
  return dialog;
}

describe('Webhooks', () => {
  it('when an endpoint is added, then its secret is shown once with a Copy button, and a rotation shows the new one with the 24-hour overlap', async () => {
    const { user } = await openWebhooks();
    await user.click(screen.getByRole('button', { name: 'Add endpoint' }));
    const form = screen.getByRole('dialog', { name: 'Add webhook endpoint' });
    await user.click(within(form).getByRole('button', { name: 'Add endpoint' }));
    expect(await within(form).findByText('URL is required')).toBeInTheDocument();
    expect(within(form).getByText('Choose at least one event')).toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Cancel' }));

    await addEndpoint(user, 'https://warehouse.example.edu/in');
    const shown = await screen.findByRole('dialog', { name: 'Endpoint added: its signing secret' });
    expect(within(shown).getByTestId('webhook-secret')).toHaveTextContent('whsec_secret1');
    expect(shown).toHaveTextContent('Readiness will not show it again');
    const write = jest.spyOn(navigator.clipboard, 'writeText');
    await user.click(within(shown).getByRole('button', { name: 'Copy the secret' }));
    expect(write).toHaveBeenLastCalledWith('whsec_secret1');
    await user.click(within(shown).getByRole('button', { name: 'I have copied it' }));
    expect(screen.queryByText('whsec_secret1')).not.toBeInTheDocument();
    const row = screen.getByRole('row', { name: /warehouse\.example\.edu/ });
    expect(within(row).getByText('result.recorded')).toBeInTheDocument();
    expect(within(row).getByText('student.invited')).toBeInTheDocument();
    expect(within(row).getByText('Data warehouse')).toBeInTheDocument();

    await user.click(
      within(row).getByRole('button', { name: 'Rotate the secret of https://warehouse.example.edu/in' }),
    );
    await user.click(
      within(screen.getByRole('dialog', { name: 'Rotate the signing secret' })).getByRole('button', {
        name: 'Rotate',
      }),
    );
    const rotated = await screen.findByRole('dialog', { name: 'The new signing secret' });
    expect(within(rotated).getByTestId('webhook-secret')).toHaveTextContent('whsec_secret2');
    expect(rotated).toHaveTextContent('keeps signing alongside this one for 24 hours');
  });

  it('when the log is opened, then each delivery shows its state, tries, status, latency and answer, and "Send again" sends it', async () => {
    const { user } = await openWebhooks();
    await user.click(
      screen.getByRole('button', { name: 'Delivery log of https://crm.example.edu/hooks/readiness' }),
    );
    const log = await screen.findByRole('table', {
      name: 'Delivery log of https://crm.example.edu/hooks/readiness',
    });
    const [, waiting, sent] = within(log).getAllByRole('row');
    expect(within(waiting!).getByText('Waiting')).toBeInTheDocument();
    expect(within(waiting!).getByText('503')).toBeInTheDocument();
    expect(within(waiting!).getByText('12 ms')).toBeInTheDocument();
    expect(within(waiting!).getByText('busy, try later')).not.toBeVisible();
    await user.click(within(waiting!).getByText('Show answer'));
    expect(within(waiting!).getByText('busy, try later')).toBeVisible();
    expect(within(sent!).getByText('Sent')).toBeInTheDocument();
    expect(within(sent!).getByText('204')).toBeInTheDocument();

    await user.click(within(waiting!).getByRole('button', { name: /^Send again: result\.recorded/ }));
    expect(await screen.findByText('The delivery is being sent again')).toBeInTheDocument();
    expect(sentAgain).toEqual(['d-2']);
    await waitFor(() => expect(within(log).getByText('200')).toBeInTheDocument());
  });

  it('when the service refuses the URL, then its message shows at the URL field and no secret is shown', async () => {
    server.use(
      http.post('/api/admin/webhooks', () =>
        refusal(400, {
          message: 'URL leads to a linkLocal address, which cannot receive webhooks',
          code: 'validation_failed',
          field: 'url',
        }),
      ),
    );
    const { user } = await openWebhooks();
    const dialog = await addEndpoint(user, 'http://169.254.169.254/latest');
    await expectErrorAtField(
      within(dialog).getByLabelText('URL'),
      'URL leads to a linkLocal address, which cannot receive webhooks',
    );
    expect(screen.queryByRole('dialog', { name: /signing secret/ })).not.toBeInTheDocument();
  });

  it('when a test event is sent, then the log opens with it; Disable asks first and shows the reason; Delete asks first', async () => {
    const { user } = await openWebhooks();
    const url = 'https://crm.example.edu/hooks/readiness';
    await user.click(screen.getByRole('button', { name: `Send a test event to ${url}` }));
    expect(await screen.findByText('A test event is on its way')).toBeInTheDocument();
    const log = await screen.findByRole('table', { name: `Delivery log of ${url}` });
    expect(await within(log).findByText('webhook.test')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: `Disable ${url}` }));
    const disable = screen.getByRole('dialog', { name: 'Disable webhook endpoint' });
    await user.click(within(disable).getByRole('button', { name: 'Disable' }));
    expect(await screen.findByText('Webhook endpoint disabled')).toBeInTheDocument();
    const row = screen.getByRole('row', { name: /crm\.example\.edu/ });
    await waitFor(() => expect(within(row).getByText('Disabled by an admin')).toBeInTheDocument());
    expect(endpoints[0]).toMatchObject({ disabled: true, events: ['result.recorded'] });

    await user.click(screen.getByRole('button', { name: `Delete ${url}` }));
    const remove = screen.getByRole('dialog', { name: 'Delete webhook endpoint' });
    await user.click(within(remove).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('No webhook endpoint yet')).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: `Delivery log of ${url}` })).not.toBeInTheDocument();
  });

  it('when a super admin is on Admin Management, then a "Webhooks" link leads to the screen', async () => {
    const { user } = renderApp('/admin/admins', { token: openSession(superAdmin._id) });
    await user.click(await screen.findByRole('link', { name: 'Webhooks' }));
    expect(await screen.findByRole('table', { name: 'Webhook endpoints' })).toBeInTheDocument();
  });
});
