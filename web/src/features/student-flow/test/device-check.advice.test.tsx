import { screen, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { answer } from '../../../testing/answer';
import { http } from '../../../testing/openapi-http';
import { renderStudentApp } from '../../../testing/render-student';
import { server } from '../../../testing/server';
import { createStudentI18n } from '../../../i18n/i18n';
import { clockLine, connectionLine, median } from '../device-check';
import { db, TOKEN, useStudentServer } from './student-server';

useStudentServer();

const check = () => screen.findByRole('region', { name: 'Before you start' });

/** The line of the check that reads `text`, with its status word. */
const line = async (text: string | RegExp) =>
  (await within(await check()).findByText(text)).closest('li') as HTMLElement;

const IN_STEP = 'Clock: in step with the server';
const KEPT = 'Offline answers: kept on this device if your connection drops';
const CLOSED =
  'If you close the page: the time keeps running; your saved answers are kept and you can come back with the same link.';
const UNREACHABLE = 'Connection: could not reach the server — check your connection before you start';
const NO_STORAGE =
  'Offline answers: this browser cannot keep answers while offline — stay connected, or leave private browsing';

describe('Check before the clock starts', () => {
  it('when the server answers quickly and the clocks agree, then the check says the connection is good and the clock in step, and announces it', async () => {
    const lookUps: { cache: RequestCache; method: string; path: string }[] = [];
    const seen = ({ request }: { request: Request }) => {
      const { pathname } = new URL(request.url);
      if (pathname === `/api/student/${TOKEN}`) {
        lookUps.push({ cache: request.cache, method: request.method, path: pathname });
      }
    };
    server.events.on('request:start', seen);
    try {
      renderStudentApp(`/assessment/${TOKEN}`);
      const region = await check();
      expect(within(region).getByRole('heading', { level: 2, name: 'Before you start' })).toBeInTheDocument();
      expect(await line(/^Connection: good \(\d+ ms\)$/)).toHaveTextContent('OK');
      expect(await line(IN_STEP)).toHaveTextContent('OK');
      expect(await line(KEPT)).toHaveTextContent('OK');
      expect(await line(CLOSED)).toBeInTheDocument();
      expect(within(within(region).getByRole('list')).getAllByRole('listitem')).toHaveLength(4);
      expect(within(region).getByRole('status')).toHaveTextContent(
        /^Check finished\. Connection: good \(\d+ ms\)\. Clock: in step with the server\. Offline answers: kept on this device if your connection drops\.$/,
      );
      expect(lookUps).toEqual(
        Array.from({ length: 3 }, () => ({
          cache: 'no-store',
          method: 'GET',
          path: `/api/student/${TOKEN}`,
        })),
      );
      // The SPEC's welcome page is all still there, Start included.
      expect(screen.getByRole('region', { name: 'Online Learning Readiness' })).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Start Assessment' })).toBeEnabled();
    } finally {
      server.events.removeListener('request:start', seen);
    }
  });

  it('when this device clock is 5 minutes ahead of the server, then the check says so and that the timer follows the server', async () => {
    db.clockAhead = -5 * 60_000;
    renderStudentApp(`/assessment/${TOKEN}`);
    expect(
      await line(
        "Clock: this device is 5 minutes ahead — the timer follows the server's clock, so nothing to do",
      ),
    ).toBeInTheDocument();
    expect(within(await check()).queryByText(IN_STEP)).not.toBeInTheDocument();
  });

  it('when the look-up does not reach the server, then the check warns before Start, and Start still works', async () => {
    server.use(http.get('/api/student/{token}', () => HttpResponse.error()));
    renderStudentApp(`/assessment/${TOKEN}`);
    expect(await line(UNREACHABLE)).toHaveTextContent('Warning');
    expect(within(await check()).getByRole('status')).toHaveTextContent(UNREACHABLE);
    expect(screen.getByRole('button', { name: 'Start Assessment' })).toBeEnabled();
  });

  it('when this browser refuses to keep anything (private browsing), then the check warns that answers are not kept offline', async () => {
    const setItem = jest.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    });
    try {
      renderStudentApp(`/assessment/${TOKEN}`);
      expect(await line(NO_STORAGE)).toHaveTextContent('Warning');
      expect(within(await check()).queryByText(KEPT)).not.toBeInTheDocument();
    } finally {
      setItem.mockRestore();
    }
  });

  it('when the connection is still being checked, then Start starts the assessment without waiting', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(
      http.get('/api/student/{token}', async () => {
        await held;
        return answer('/api/student/{token}', 'get', { student: db.student });
      }),
    );
    const scrollTo = jest.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
    try {
      const { user } = renderStudentApp(`/assessment/${TOKEN}`);
      expect(await line('Connection: checking…')).toBeInTheDocument();
      expect(within(await check()).getByRole('status')).toBeEmptyDOMElement();
      await user.click(screen.getByRole('button', { name: 'Start Assessment' }));
      expect(await screen.findByRole('heading', { level: 2, name: 'Technology' })).toBeInTheDocument();
      expect(db.attempt).not.toBeNull();
    } finally {
      release();
      scrollTo.mockRestore();
    }
  });
});

describe('Check wording', () => {
  const english = createStudentI18n();

  const fair = (ms: number) =>
    `Connection: fair (${ms} ms) — fine for the assessment; saving may take a moment`;
  const slow = (seconds: string) =>
    `Connection: slow (${seconds} s) — your answers are still saved, it may just take longer`;

  it.each([
    [120, 'ok', 'Connection: good (120 ms)'],
    [299, 'ok', 'Connection: good (299 ms)'],
    // Classed as shown: a median of 299.6 ms reads '300 ms', and 300 ms is not good.
    [299.6, 'ok', fair(300)],
    [300, 'ok', fair(300)],
    [928, 'ok', fair(928)],
    [999, 'ok', fair(999)],
    [999.6, 'warning', slow('1.0')],
    [1000, 'warning', slow('1.0')],
    [1400, 'warning', slow('1.4')],
    [null, 'warning', UNREACHABLE],
  ] as const)('when the median round trip is %s ms, then the line is %s: %s', (ms, status, text) => {
    expect(connectionLine(english, ms)).toEqual({ status, text });
  });

  it('when round trips vary, then the median is the middle one', () => {
    expect(median([900, 80, 120])).toBe(120);
  });

  it.each([
    [29_000, IN_STEP],
    [-29_000, IN_STEP],
    [
      60_000,
      "Clock: this device is 1 minute behind — the timer follows the server's clock, so nothing to do",
    ],
    [
      -3 * 3_600_000,
      "Clock: this device is 3 hours ahead — the timer follows the server's clock, so nothing to do",
    ],
  ])('when the server clock is %i ms ahead, then the clock line reads %s', (offset, text) => {
    expect(clockLine(english, offset).text).toBe(text);
  });
});
