import { screen } from '@testing-library/react';
import { http } from '../../../testing/openapi-http';
import { matchesNameOrEmail } from '../../../components/ui';
import { answer, refusal } from '../../../testing/answer';
import { onePage } from '../../../testing/paging';
import { regularAdmin } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/render';
import { openSession, server } from '../../../testing/server';
import type { LiveAttempt } from '../api/live-api';
import type { WaitingRoom, WaitingRoomChange } from '../api/waiting-room-api';

/*
 * An in-memory stand-in for the student service's Live operations: server-side search and paging over the
 * attempts in progress, least time left first; extending moves a deadline, ending takes the attempt off the list.
 * The waiting room answers its figures and keeps the admission limit it is given.
 */
export const live = {
  attempts: [] as LiveAttempt[],
  listQueries: [] as URLSearchParams[],
  extended: [] as { attemptId: string; body: unknown }[],
  ended: [] as { attemptId: string; body: unknown }[],
  room: null as unknown as WaitingRoom,
  roomChanges: [] as WaitingRoomChange[],
};

/** The waiting room's answer when nobody waits: automatic, admitting at the measured capacity. */
export const emptyRoom = (): WaitingRoom => ({
  enabled: true,
  unlimited: false,
  serving: 0,
  waiting: 0,
  longestWaitSeconds: 0,
  perMinute: 240,
  ceilingPerMinute: null,
  pressure: 'healthy',
  admittedLastMinute: 12,
});

export const CEILING_MESSAGE = 'ceilingPerMinute must be a whole number from 1 to 100000, or null';

/** The service's refusal of a limit, naming the field it is about. */
export const ceilingRefused = () =>
  refusal(400, { message: CEILING_MESSAGE, code: 'validation_failed', field: 'ceilingPerMinute' });

export const CLOSED_MESSAGE = 'This attempt is no longer in progress';

const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

/** An attempt in progress with `minutesLeft` to go by the server's clock. */
export const attempt = ({
  minutesLeft = 30,
  ...overrides
}: Partial<LiveAttempt> & { minutesLeft?: number }): LiveAttempt => ({
  attemptId: 'at-0',
  studentId: 'st-0',
  name: 'Student',
  email: 'student@example.edu',
  attemptNumber: 1,
  section: { number: 1, title: 'Self-management', count: 4 },
  answered: 0,
  total: 20,
  startedAt: minutesFromNow(minutesLeft - 60),
  deadlineAt: minutesFromNow(minutesLeft),
  timeLeftSeconds: minutesLeft * 60,
  savedAt: null,
  presence: 'active',
  idleMinutes: 0,
  extraTimePercent: 0,
  addedMinutes: 0,
  ...overrides,
});

export function seedAttempts(): void {
  live.room = emptyRoom();
  live.roomChanges.length = 0;
  live.listQueries.length = 0;
  live.extended.length = 0;
  live.ended.length = 0;
  live.attempts = [
    attempt({
      attemptId: 'at-1',
      studentId: 'st-1',
      name: 'Marie Curie',
      email: 'marie@example.edu',
      minutesLeft: 3,
      section: { number: 2, title: 'Technology', count: 4 },
      answered: 7,
      savedAt: minutesFromNow(-0.5),
    }),
    attempt({
      attemptId: 'at-2',
      studentId: 'st-2',
      name: 'Niels Bohr',
      email: 'niels@example.edu',
      minutesLeft: 42,
      answered: 12,
      presence: 'idle',
      idleMinutes: 3,
      savedAt: minutesFromNow(-3),
      attemptNumber: 2,
      addedMinutes: 10,
    }),
    attempt({
      attemptId: 'at-3',
      studentId: 'st-3',
      name: 'Lise Meitner',
      email: 'lise@example.edu',
      minutesLeft: 95,
      section: null,
      presence: 'offline',
    }),
  ];
}

const notFound = () => refusal(404, { message: 'Attempt not found', code: 'not_found' });

const handlers = [
  http.get('/api/admin/students/waiting-room', () =>
    answer('/api/admin/students/waiting-room', 'get', live.room),
  ),
  http.put('/api/admin/students/waiting-room', async ({ request }) => {
    const body = await request.json();
    live.roomChanges.push(body);
    live.room = { ...live.room, ceilingPerMinute: body.ceilingPerMinute };
    return answer('/api/admin/students/waiting-room', 'put', live.room);
  }),
  http.get('/api/admin/live', ({ request }) => {
    const params = new URL(request.url).searchParams;
    live.listQueries.push(params);
    const matching = live.attempts
      .filter((a) => matchesNameOrEmail(a, params.get('search') ?? ''))
      .sort((a, b) => a.deadlineAt.localeCompare(b.deadlineAt));
    const { rows, pagination } = onePage(matching, params, 25);
    return answer('/api/admin/live', 'get', {
      attempts: rows,
      pagination,
      serverNow: new Date().toISOString(),
    });
  }),
  http.post('/api/admin/live/{attemptId}/extend', async ({ request, params }) => {
    const body = await request.json();
    live.extended.push({ attemptId: params.attemptId, body });
    const found = live.attempts.find((a) => a.attemptId === params.attemptId);
    if (!found) return notFound();
    const deadlineAt = new Date(Date.parse(found.deadlineAt) + body.minutes * 60_000).toISOString();
    Object.assign(found, { deadlineAt, addedMinutes: found.addedMinutes + body.minutes });
    return answer('/api/admin/live/{attemptId}/extend', 'post', {
      message: `Added ${body.minutes} minutes for ${found.name}`,
      attempt: { attemptId: found.attemptId, deadlineAt, timeLeftSeconds: found.timeLeftSeconds },
    });
  }),
  http.post('/api/admin/live/{attemptId}/end', async ({ request, params }) => {
    // The operation declares no body: what was sent is kept as text, so a test sees that none was.
    live.ended.push({ attemptId: params.attemptId, body: await request.text() });
    const found = live.attempts.find((a) => a.attemptId === params.attemptId);
    if (!found) return notFound();
    live.attempts = live.attempts.filter((a) => a !== found);
    return answer('/api/admin/live/{attemptId}/end', 'post', {
      message: `Attempt ended for ${found.name}; it is scored from the last saved answers`,
    });
  }),
];

/** The answer of the service to an action on an attempt that was submitted or ended a moment before. */
export const closedAttempt = () => refusal(409, { message: CLOSED_MESSAGE, code: 'attempt_closed' });

export const LIMIT_MESSAGE =
  'At most 60 minutes can be added to an attempt (2 × its 30-minute time limit); 55 are added already, so at most 5 more. Nothing was changed.';

/** The answer of the service to time past the most an attempt can be given. */
export const overLimit = () => refusal(409, { message: LIMIT_MESSAGE, code: 'extension_limit' });

/** Installs the stand-in for one test file, on top of the shared auth handlers. */
export function useLiveServer(): void {
  beforeEach(() => {
    seedAttempts();
    server.use(...handlers);
  });
}

/** Opens the Live screen as an admin who is not a super admin (every admin has it), once its list is shown. */
export async function openLive() {
  const app = renderApp('/admin/live', { token: openSession(regularAdmin._id) });
  await screen.findByRole('table', { name: 'Attempts in progress, least time left first' });
  return app;
}

/** The table row of a student's attempt. */
export const row = (name: string) => screen.getByRole('row', { name: new RegExp(name) });
