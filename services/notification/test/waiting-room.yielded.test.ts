import { randomUUID } from 'node:crypto';
import { createMemoryStore } from '@readiness/kit/cache';
import { STUDENTS_WAITING_KEY } from '@readiness/kit/runtime';
import { eventually } from '@readiness/testing';
import { invitationEvent, passwordResetEvent, startNotification, yielding, type Harness } from './harness';

jest.setTimeout(60_000);

// On the memory bus: the runtime's pausing is the subject here; both buses pause in the kit's suite.
const CHECK_MS = 50;
const kv = createMemoryStore();
let h: Harness;
beforeAll(async () => {
  h = await startNotification('embedded', { kv, config: { BUS_YIELD_CHECK_MS: CHECK_MS } });
});
afterAll(async () => {
  await h?.close();
  await kv.close();
});

const mailsTo = (email: string) => h.catcher.list().filter((m) => m.to.includes(email));

test('when students wait, then invitation mails wait while a password reset goes out; when nobody waits any more, then each invitation goes out once', async () => {
  await kv.set(STUDENTS_WAITING_KEY, '120', 5);
  await eventually(
    async () => (await yielding(h, 'notification.student-invited')) === 1,
    'the invitations paused',
  );

  const students = Array.from({ length: 3 }, () => `${randomUUID()}@example.edu`);
  await h.bus.publish(students.map((email) => invitationEvent({ studentId: randomUUID(), email })));
  const admin = `${randomUUID()}@example.edu`;
  await h.bus.publish([passwordResetEvent({ email: admin })]);
  await h.catcher.waitFor((m) => m.to.includes(admin), 10_000);
  await new Promise((r) => setTimeout(r, CHECK_MS * 6));
  expect(students.flatMap(mailsTo)).toHaveLength(0);

  await kv.del(STUDENTS_WAITING_KEY);
  await eventually(() => students.every((s) => mailsTo(s).length === 1), 'every invitation mailed', 10_000);
  await new Promise((r) => setTimeout(r, CHECK_MS * 6));
  expect(students.map((s) => mailsTo(s).length)).toEqual([1, 1, 1]);
  expect(await yielding(h, 'notification.student-invited')).toBe(0);
  expect(await yielding(h, 'notification.certificate-issued')).toBe(0);
});
