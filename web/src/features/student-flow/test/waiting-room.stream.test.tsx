import { screen } from '@testing-library/react';
import { waitingKey } from '../waiting-room';
import {
  db,
  FakeEventSource,
  later,
  lineFigures,
  pressStartIntoLine,
  setVisibility,
  spoken,
  seenPlace,
  TICKET,
  TOKEN,
  useFakeEventSource,
  useWaitingLine,
} from './student-server';

useWaitingLine();
useFakeEventSource();

const LINE_EVENTS = `${window.location.origin}/api/waiting-room/events`;

/** The waiting page's stream of the line (the test page opens its own once the attempt starts). */
function lineStream(): FakeEventSource {
  const streams = FakeEventSource.instances.filter((source) => source.url === LINE_EVENTS);
  expect(streams).toHaveLength(1);
  return streams[0]!;
}

/** The line moves on at the server, and the stream says so. */
function lineMoves(stream: FakeEventSource, serving: number, perMinute = db.line!.perMinute) {
  db.line!.serving = serving;
  db.line!.perMinute = perMinute;
  stream.emit('line', lineFigures());
}

describe('The waiting page follows the line’s stream', () => {
  it('when the stream brings the line forward, then the place and what is spoken follow, and the page polls nothing', async () => {
    const { card } = await pressStartIntoLine();
    const stream = lineStream();
    expect(stream.url).toBe(LINE_EVENTS);

    // The message sent at connect.
    lineMoves(stream, 4800, 120);
    expect(spoken(card)).toHaveTextContent(/^You are number 212 in line$/);
    expect(seenPlace(card)).toBe(212);
    // Two admitted a second by the new rate between messages.
    await later(3000);
    expect(seenPlace(card)).toBeLessThanOrEqual(206);
    expect(spoken(card)).toHaveTextContent(/^You are number 212 in line$/);

    // A message about every 5 s, for long past the poll's 5 s and the stream's 10 s of silence.
    for (const serving of [4850, 4900, 4950, 4980]) {
      await later(5000);
      lineMoves(stream, serving);
    }
    expect(spoken(card)).toHaveTextContent(/^You are number 32 in line$/);
    await later(8000);
    expect(db.linePolls).toBe(0);
    expect(FakeEventSource.instances).toHaveLength(1);
  });

  it('when a message finds the ticket served while the page is seen, then the page starts the attempt by itself', async () => {
    await pressStartIntoLine();
    lineMoves(lineStream(), TICKET);
    expect(await screen.findByRole('heading', { level: 2, name: 'Technology' })).toBeInTheDocument();
    expect(await screen.findByText('Assessment started. Good luck!')).toBeInTheDocument();
    expect(db.starts).toBe(2);
    expect(db.attempt).not.toBeNull();
    expect(db.linePolls).toBe(0);
    expect(window.sessionStorage.getItem(waitingKey(TOKEN))).toBeNull();
  });

  it('when the gateway refuses the stream, then the page polls every 5 to 9 s as without one, and opens no other', async () => {
    const { card } = await pressStartIntoLine();
    const stream = lineStream();
    stream.fail({ closed: true });
    expect(stream.readyState).toBe(FakeEventSource.CLOSED);

    db.line!.serving = 4800;
    await later(5000);
    expect(db.linePolls).toBe(1);
    expect(spoken(card)).toHaveTextContent(/^You are number 212 in line$/);
    db.line!.serving = 4900;
    await later(5000);
    expect(db.linePolls).toBe(2);
    expect(spoken(card)).toHaveTextContent(/^You are number 112 in line$/);
    await later(60_000);
    expect(FakeEventSource.instances).toHaveLength(1);
  });

  it('when the stream falls silent for 10 s, then the page polls every 5 to 9 s until it speaks again', async () => {
    const { card } = await pressStartIntoLine();
    const stream = lineStream();
    lineMoves(stream, 4710);
    // Dropped: the browser connects again by itself, which is no reason to poll yet.
    stream.fail({ closed: false });
    await later(9000);
    expect(db.linePolls).toBe(0);

    db.line!.serving = 4800;
    await later(1500);
    expect(db.linePolls).toBe(1);
    expect(spoken(card)).toHaveTextContent(/^You are number 212 in line$/);
    await later(5000);
    expect(db.linePolls).toBe(2);

    // Back: the stream speaks again and the polls stop until it is silent 10 s more.
    lineMoves(stream, 4900);
    expect(spoken(card)).toHaveTextContent(/^You are number 112 in line$/);
    await later(9000);
    expect(db.linePolls).toBe(2);
    await later(1500);
    expect(db.linePolls).toBe(3);
  });

  it('when the tab is seen again with figures over 10 s old, then it polls at once; with fresh ones, it does not', async () => {
    const { card } = await pressStartIntoLine();
    const stream = lineStream();
    lineMoves(stream, 4710);
    setVisibility('hidden');
    await later(4000);
    lineMoves(stream, 4720);
    setVisibility('visible');
    await later(100);
    expect(db.linePolls).toBe(0);

    // Hidden, the tab's timers were held back: nothing came for 15 s.
    setVisibility('hidden');
    jest.setSystemTime(Date.now() + 15_000);
    db.line!.serving = 4800;
    setVisibility('visible');
    await later(100);
    expect(db.linePolls).toBe(1);
    expect(spoken(card)).toHaveTextContent(/^You are number 212 in line$/);
  });

  it('when the waiting page goes away, then it closes the stream and polls nothing', async () => {
    const { unmount } = await pressStartIntoLine();
    const stream = lineStream();
    expect(stream.closedByPage).toBe(false);
    unmount();
    expect(stream.closedByPage).toBe(true);
    await later(30_000);
    expect(db.linePolls).toBe(0);
  });
});
