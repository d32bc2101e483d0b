import { randomUUID } from 'node:crypto';
import type { EventInit } from '@readiness/contracts';
import { eventually } from '@readiness/testing';
import { unzipSync } from 'fflate';
import { sql } from 'drizzle-orm';
import type { MemoryBus } from '@readiness/kit/bus';
import { inviteStudent, useStudent, type JsonBody } from './harness';

jest.setTimeout(60_000);

// On the memory bus: the parts' checks and the ZIP are the subject, not the broker.
const h = useStudent('embedded');

type Part = EventInit<'results.student-export.answered.v1'>;
const answered = (service: 'results' | 'report' | 'notification' | 'integrations' | 'auth') =>
  `${service}.student-export.answered.v1` as const;

const status = async (id: string) => {
  const res = await h.call('GET', `/api/admin/students/${id}/export/status`);
  return { status: res.status, json: (await res.json()) as JsonBody };
};

test('when every service answers, then the ZIP holds each part in its folder, and forged, foreign or repeated parts change nothing', async () => {
  const s = await inviteStudent(h, { name: 'Ada Exported' });
  const other = await inviteStudent(h);
  expect((await status(s.id)).json.code).toBe('export_not_found');

  const asked = await h.call('POST', `/api/admin/students/${s.id}/export`);
  expect(asked.status).toBe(202);
  const { export: started } = (await asked.json()) as JsonBody;
  expect(started).toMatchObject({
    ready: false,
    received: [],
    waitingFor: expect.arrayContaining(['auth', 'report']),
  });
  await eventually(
    async () => h.eventsNamed('student.export.requested.v1').length === 1,
    'the request event',
  );
  const [request] = h.eventsNamed('student.export.requested.v1');
  expect(request!.payload).toMatchObject({ exportId: started.id, studentId: s.id, name: 'Ada Exported' });
  expect(request!.payload.actorId).not.toBe('');

  const part = (
    service: string,
    files: NonNullable<Part['files']>,
    about: { exportId?: string; studentId?: string } = {},
  ): Part => ({
    exportId: about.exportId ?? (started.id as string),
    studentId: about.studentId ?? s.id,
    service,
    files,
  });
  const json = (path: string, data: unknown) => ({
    path,
    description: `${path} explained`,
    json: JSON.stringify(data),
  });

  // Refused whole: a path out of its folder, a service speaking for another, an object that is not this student's
  // certificate, a part of another student's export, and a part of an export that does not exist.
  await h.publish(
    answered('results'),
    part('results', [json('../../student/student.json', { forged: true })]),
  );
  await h.publish(answered('auth'), part('results', [json('results.json', { forged: true })]));
  await h.publish(
    answered('report'),
    part('report', [
      { path: 'certificates/X.pdf', description: 'x', json: '', objectKey: `certificates/${other.id}/r.pdf` },
    ]),
  );
  await h.publish(
    answered('notification'),
    part('notification', [json('mails.json', { forged: true })], { studentId: other.id }),
  );
  await h.publish(
    answered('integrations'),
    part('integrations', [json('x.json', {})], { exportId: randomUUID() }),
  );
  const settled = () => (h.bus as MemoryBus).drain();
  await settled();
  expect((await status(s.id)).json.export.received).toEqual([]);

  await h.publish(answered('results'), part('results', [json('results.json', [{ attempt_number: 1 }])]));
  await settled();
  await h.publish(answered('results'), part('results', [json('results.json', [{ replaced: true }])]));
  await h.publish(
    answered('report'),
    part('report', [
      json('certificates.json', [{ code: 'RDY-1' }]),
      // The student's own certificate, no longer stored: named in the README, left out.
      {
        path: 'certificates/RDY-1.pdf',
        description: 'The certificate',
        json: '',
        objectKey: `certificates/${s.id}/r1.pdf`,
      },
    ]),
  );
  await h.publish(answered('notification'), part('notification', [json('mails.json', [])]));
  await h.publish(answered('integrations'), part('integrations', [json('lms-launches.json', [])]));
  const early = await h.call('GET', `/api/admin/students/${s.id}/export`);
  expect(early.status).toBe(202);
  expect(early.headers.get('retry-after')).toBe('2');
  await h.publish(answered('auth'), part('auth', [json('audit-log.json', [{ action: 'student.invited' }])]));

  const ready = await eventually(async () => {
    const now = await status(s.id);
    return now.json.export?.ready ? now.json.export : false;
  }, 'the export ready');
  expect(ready.received).toEqual(['auth', 'integrations', 'notification', 'report', 'results']);

  const res = await h.call('GET', `/api/admin/students/${s.id}/export`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/zip');
  expect(res.headers.get('cache-control')).toBe('no-store');
  const zip = unzipSync(new Uint8Array(await res.arrayBuffer()));
  const text = (name: string) => Buffer.from(zip[name]!).toString('utf8');
  expect(Object.keys(zip).sort()).toEqual([
    'README.txt',
    'auth/audit-log.json',
    'integrations/lms-launches.json',
    'notification/mails.json',
    'report/certificates.json',
    'results/results.json',
    'student/actions.json',
    'student/attempts.json',
    'student/lms-identities.json',
    'student/results.json',
    'student/student.json',
  ]);
  expect(JSON.parse(text('results/results.json'))).toEqual([{ attempt_number: 1 }]);
  expect(JSON.parse(text('student/student.json'))).toMatchObject({ id: s.id, name: 'Ada Exported' });
  expect(text('student/actions.json')).toContain('student.export-requested');
  expect(text('README.txt')).toContain(
    'report/certificates/RDY-1.pdf\n    The certificate (no longer stored, so not included)',
  );
  expect(text('README.txt')).toContain('results/results.json\n    results.json explained');
  for (const content of Object.values(zip).map((b) => Buffer.from(b).toString('utf8'))) {
    expect(content).not.toContain('forged');
    expect(content).not.toContain(other.id);
  }

  // Asked again once ready: the same export; erased with the student.
  const again = (await (await h.call('POST', `/api/admin/students/${s.id}/export`)).json()) as JsonBody;
  expect(again.export.id).toBe(started.id);
  expect((await h.call('DELETE', `/api/admin/students/${s.id}`)).status).toBe(200);
  const [left] = await h.database.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM student_export_parts p JOIN student_exports e ON e.id = p.export_id
        WHERE e.student_id = ${s.id}`,
  );
  expect(left!.n).toBe(0);
});

test('when the export of an unknown student or a malformed id is asked for, then 404, and without a token 401', async () => {
  expect((await h.call('POST', `/api/admin/students/${randomUUID()}/export`)).status).toBe(404);
  expect((await h.call('GET', '/api/admin/students/..%2F..%2Fetc/export')).status).toBe(404);
  expect((await h.call('GET', '/api/admin/students/not-an-id/export/status')).status).toBe(404);
  const s = await inviteStudent(h);
  expect((await h.call('GET', `/api/admin/students/${s.id}/export`, { token: null })).status).toBe(401);
  // A GET with nothing asked starts an export, as the POST does.
  const started = await h.call('GET', `/api/admin/students/${s.id}/export`);
  expect(started.status).toBe(202);
  expect(((await started.json()) as JsonBody).export.ready).toBe(false);
});
