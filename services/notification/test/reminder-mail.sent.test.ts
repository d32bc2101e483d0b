import { randomUUID } from 'node:crypto';
import { eventually } from '@readiness/testing';
import { createDeliveriesRepository } from '../src/data-access/deliveries-repository';
import { deliveryRows, invitationEvent, startNotification, type Harness } from './harness';

jest.setTimeout(60_000);

// On the memory bus: the claim that mails each event once is the subject, not the broker (its suite runs both).
let h: Harness;
beforeAll(async () => {
  h = await startNotification('embedded');
});
afterAll(() => h?.close());

test('when a reminder is requested, then the mail goes in the student’s language with the link they have, once however often the event is delivered', async () => {
  const studentId = randomUUID();
  const url = `https://readiness.example.edu/assessment/${randomUUID()}`;
  const event = invitationEvent({
    studentId,
    email: 'amelie@example.edu',
    name: 'Amélie',
    url,
    title: 'Readiness check',
    localizedTitle: 'Évaluation de préparation',
    language: 'fr',
    reminder: true,
  });
  await h.bus.publish([event]);
  await h.bus.publish([event]);

  const mail = await h.catcher.waitFor((m) => m.to.includes('amelie@example.edu'), 10_000);
  expect(mail.subject).toBe('Rappel\u00a0: votre invitation à l’évaluation Readiness');
  expect(mail.text).toContain(`Accéder à votre évaluation\u00a0: ${url}`);
  expect(mail.html).toContain(`href="${url}"`);
  expect(mail.html).toContain('lang="fr"');

  await eventually(async () => (await deliveryRows(h.database)).some((d) => d.status === 'sent'), 'sent');
  await new Promise((r) => setTimeout(r, 300));
  expect(h.catcher.list().filter((m) => m.to.includes('amelie@example.edu'))).toHaveLength(1);
  expect((await deliveryRows(h.database)).map((d) => [d.template, d.status])).toEqual([
    ['student-invitation-reminder', 'sent'],
  ]);
  // The Students screen's row says it was the reminder that went, not the invitation.
  expect(await createDeliveriesRepository(h.database).latestForStudents([studentId])).toEqual([
    expect.objectContaining({ studentId, kind: 'reminder', status: 'sent' }),
  ]);
});
