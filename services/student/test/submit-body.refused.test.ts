import http from 'node:http';
import { sql } from 'drizzle-orm';
import { eventually } from '@readiness/testing';
import { inviteStudent, studentCall, useStudent, type JsonBody } from './harness';

jest.setTimeout(60_000);

const h = useStudent('embedded', { config: { SUBMIT_RESULT_WAIT_MS: 0 } });

const SAVED = [
  { questionId: 'q1', answer: 'yes' },
  { questionId: 'q2', answer: 'opt-secret-key' },
];

/** A student who started and whose page autosaved both answers of section 1. */
async function savedAttempt() {
  const s = await inviteStudent(h);
  const { json } = await studentCall(h, 'POST', `/api/student/${s.token}/start`);
  const attemptId = json.attempt.id as string;
  const saved = await studentCall(h, 'PUT', `/api/student/${s.token}/answers`, {
    attemptId,
    seq: 1,
    answers: SAVED,
  });
  expect(saved.status).toBe(200);
  return { ...s, attemptId };
}

/** A POST to the submit route sent byte for byte (fetch always names a type for a body it is given). */
function rawSubmit(token: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; json: JsonBody }>((resolve, reject) => {
    const req = http.request(`${h.url}/api/student/${token}/submit`, { method: 'POST', headers });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) as JsonBody }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The attempt is still in progress with its autosaved answers, and no submission went out. */
async function stillOpen(s: { token: string; attemptId: string }) {
  const page = await studentCall(h, 'GET', `/api/student/${s.token}/assessment`);
  expect(page.json.attempt).toMatchObject({ id: s.attemptId, seq: 1, answers: SAVED });
  expect(page.json.awaitingResult).toBe(false);
  const [row] = await h.database.execute<{ status: string }>(
    sql`SELECT status FROM attempts WHERE id = ${s.attemptId}`,
  );
  expect(row!.status).toBe('in_progress');
  expect(h.eventsNamed('student.attempt.submitted.v1').some((e) => e.payload.attemptId === s.attemptId)).toBe(
    false,
  );
}

const submittedAnswers = async (attemptId: string) => {
  await eventually(
    () => h.eventsNamed('student.attempt.submitted.v1').some((e) => e.payload.attemptId === attemptId),
    'the submitted event',
  );
  const event = h.eventsNamed('student.attempt.submitted.v1').find((e) => e.payload.attemptId === attemptId)!;
  return [...event.payload.answers]
    .map((a) => ({ questionId: a.questionId, answer: a.answer }))
    .sort((a, b) => a.questionId.localeCompare(b.questionId));
};

describe('a submit without its body', () => {
  test('when a submit has neither body nor content type, then it answers 415 and the attempt stays open with its autosaved answers', async () => {
    const s = await savedAttempt();
    const res = await fetch(`${h.url}/api/student/${s.token}/submit`, { method: 'POST' });
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({
      code: 'unsupported_media_type',
      message:
        'The submission has no body: send the answers as application/json or multipart/form-data (nothing was submitted)',
    });
    await stillOpen(s);
  });

  test.each([
    ['no content type with a body', { 'content-length': '2' }, '{}'],
    ['text/plain', { 'content-type': 'text/plain' }, '{"answers":[]}'],
    ['a form post', { 'content-type': 'application/x-www-form-urlencoded' }, 'answers='],
    ['JSON with an empty body', { 'content-type': 'application/json', 'content-length': '0' }, undefined],
  ])('when a submit is sent as %s, then it answers 415 and changes nothing', async (_name, headers, body) => {
    const s = await savedAttempt();
    const refused = await rawSubmit(s.token, headers, body);
    expect(refused.status).toBe(415);
    expect(refused.json.code).toBe('unsupported_media_type');
    expect(refused.json.message).toMatch(/application\/json or multipart\/form-data/);
    await stillOpen(s);
  });
});

describe('a submit over what was autosaved', () => {
  test('when a submit carries no answers, then the autosaved ones are submitted', async () => {
    const s = await savedAttempt();
    const res = await studentCall(h, 'POST', `/api/student/${s.token}/submit`, { attemptId: s.attemptId });
    expect(res.status).toBe(202);
    expect(await submittedAnswers(s.attemptId)).toEqual(SAVED);
  });

  test('when a submit carries some answers, then those win and the others keep their saved value; an empty one clears its question', async () => {
    const s = await savedAttempt();
    const res = await studentCall(h, 'POST', `/api/student/${s.token}/submit`, {
      attemptId: s.attemptId,
      answers: [{ questionId: 'q1', answer: 'no' }],
    });
    expect(res.status).toBe(202);
    expect(await submittedAnswers(s.attemptId)).toEqual([
      { questionId: 'q1', answer: 'no' },
      { questionId: 'q2', answer: 'opt-secret-key' },
    ]);
    const [row] = await h.database.execute<{ answers: unknown[] }>(
      sql`SELECT answers FROM attempts WHERE id = ${s.attemptId}`,
    );
    expect(row!.answers).toHaveLength(2);

    const cleared = await savedAttempt();
    await studentCall(h, 'POST', `/api/student/${cleared.token}/submit`, {
      attemptId: cleared.attemptId,
      answers: [{ questionId: 'q2', answer: '' }],
    });
    expect(await submittedAnswers(cleared.attemptId)).toEqual([{ questionId: 'q1', answer: 'yes' }]);
  });
});
