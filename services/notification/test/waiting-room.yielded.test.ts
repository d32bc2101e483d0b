import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { MemoryBus } from '@readiness/kit/bus';
import { createMemoryStore } from '@readiness/kit/cache';
import { STUDENTS_WAITING_KEY } from '@readiness/kit/runtime';
import { eventually } from '@readiness/testing';
import { issuedV2, pdfOf, store } from './certificate-events';
import {
  invitationEvent,
  passwordResetEvent,
  startNotification,
  studentDeletedEvent,
  yielding,
  type Harness,
} from './harness';

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

const QUEUES = [
  'notification.student-invited',
  'notification.reminder-requested',
  'notification.certificate-issued',
];
const rowsOf = async (query: ReturnType<typeof sql>) => (await h.database.execute(query)).length;

test('when a student is erased while their invitation, reminder and certificate mails wait at the peak, then after the peak none is logged or sent, and each is acknowledged', async () => {
  const studentId = randomUUID();
  const email = `${studentId}@example.edu`;
  await kv.set(STUDENTS_WAITING_KEY, '120', 5);
  await eventually(
    async () => (await Promise.all(QUEUES.map((q) => yielding(h, q)))).every((n) => n === 1),
    'the mails paused',
  );
  const pdf = pdfOf('an erased student');
  const certificate = issuedV2({ pdf, studentId, email });
  await store(h, certificate.objectKey, pdf);
  await h.bus.publish([
    invitationEvent({ studentId, email }),
    invitationEvent({ studentId, email, reminder: true }),
    certificate,
  ]);

  await h.bus.publish([studentDeletedEvent(studentId, email)]);
  await eventually(
    async () => (await rowsOf(sql`SELECT 1 FROM erased_students WHERE student_id = ${studentId}`)) === 1,
    'the erasure',
  );
  expect(mailsTo(email)).toEqual([]);

  await kv.del(STUDENTS_WAITING_KEY);
  const kept = `${randomUUID()}@example.edu`;
  await h.bus.publish([invitationEvent({ studentId: randomUUID(), email: kept })]);
  await h.catcher.waitFor((m) => m.to.includes(kept), 10_000);
  await (h.bus as MemoryBus).drain();

  expect(mailsTo(email)).toEqual([]);
  expect(
    await rowsOf(sql`SELECT 1 FROM deliveries WHERE student_id = ${studentId}::uuid OR recipient = ${email}`),
  ).toBe(0);
  for (const queue of QUEUES) {
    expect((h.bus as MemoryBus).deadLetters(queue)).toEqual([]);
  }
  const [tombstone] = await h.database.execute(
    sql`SELECT * FROM erased_students WHERE student_id = ${studentId}`,
  );
  expect(Object.keys(tombstone!).sort()).toEqual(['erased_at', 'student_id']);
});
