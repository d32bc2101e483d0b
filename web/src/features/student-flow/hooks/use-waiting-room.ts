import { useEffect, useRef, useState } from 'react';
import { openEventStream, streamGaveUp } from '../../../lib/api-fetch';
import { heardNow, useLazyGetWaitingRoomQuery } from '../api/student-api';
import type { WaitingRoomFigures } from '../api/types';
import {
  FIGURES_STALE_MS,
  isAdmitted,
  placeInLine,
  pollDelay,
  servingAt,
  type LineFigures,
} from '../waiting-room';

const hidden = () => document.visibilityState === 'hidden';

/** A `line` message's figures (the body of `GET /api/waiting-room`), or null for anything else. */
function parseLine(data: unknown): WaitingRoomFigures | null {
  if (typeof data !== 'string') return null;
  try {
    const body = JSON.parse(data) as Partial<WaitingRoomFigures> | null;
    return body &&
      typeof body.serving === 'number' &&
      Number.isFinite(body.serving) &&
      typeof body.perMinute === 'number'
      ? (body as WaitingRoomFigures)
      : null;
  } catch {
    return null;
  }
}

/** What the page keeps of a poll's answer or a stream's message. */
const lineOf = ({ serving, perMinute, receivedAt }: LineFigures): LineFigures => ({
  serving,
  perMinute,
  receivedAt,
});

/**
 * The student's place in line while they wait, carried forward each second by the admission rate. The line's
 * figures come from its event stream (`GET /api/waiting-room/events`) where the browser has EventSource: while it
 * delivers nothing is polled; a stream silent for 10 s (dropped, the browser reconnecting) is polled every 5–9 s
 * until it speaks again; and a stream the browser gives up on (the gateway refused it: too many open) leaves the
 * page polling for the rest of its life. Without a stream the figures are polled every 5–9 s (9 s while the tab is
 * hidden). A tab seen again polls at once: always when polling, when its figures are over 10 s old when streaming.
 * A poll that fails keeps the last figures and the next one tries again. `onAdmitted` is called for each poll
 * answer or message that finds the ticket served. `announced` is the place as of the last answer or message: what
 * a screen reader is told, not every second's figure.
 */
export function useWaitingRoom(ticket: number, first: LineFigures, onAdmitted: () => void) {
  const [poll] = useLazyGetWaitingRoomQuery();
  const [line, setLine] = useState(first);
  const [now, setNow] = useState(Date.now);
  const [announced, setAnnounced] = useState(() => placeInLine(ticket, first.serving));
  const admitted = useRef(onAdmitted);
  admitted.current = onAdmitted;

  // A new answer from Start (a reload, a 202 again) is the newest word on the line.
  useEffect(() => {
    setLine(first);
    setAnnounced(placeInLine(ticket, first.serving));
  }, [ticket, first]);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let inFlight = false;
    let stopped = false;
    let source = openEventStream('/api/waiting-room/events');
    // When the page last heard the line (Start's answer, a poll, a message), and when the stream last spoke.
    let heardAt = Date.now();
    let spokeAt = heardAt;
    let messages = 0;

    const hear = (figures: LineFigures) => {
      heardAt = Date.now();
      setLine(figures);
      setAnnounced(placeInLine(ticket, figures.serving));
      if (isAdmitted(ticket, figures)) admitted.current();
    };
    // Polling, the next poll in 5–9 s; streaming, none until the stream has been silent 10 s, then the same.
    const schedule = () => {
      clearTimeout(timer);
      const untilSilent = source ? FIGURES_STALE_MS - (Date.now() - spokeAt) : 0;
      timer = setTimeout(() => void check(), untilSilent > 0 ? untilSilent : pollDelay(hidden()));
    };
    const check = async () => {
      if (inFlight) return;
      inFlight = true;
      const before = messages;
      try {
        const figures = await poll().unwrap();
        // A message that came while the poll was out is newer than its answer.
        if (stopped || messages !== before) return;
        hear(lineOf(figures));
      } catch {
        // The last figures stand; the next poll tries again.
      } finally {
        inFlight = false;
        if (!stopped) schedule();
      }
    };

    const onLine = (message: MessageEvent) => {
      const figures = parseLine(message.data);
      if (stopped || !figures) return;
      messages += 1;
      spokeAt = Date.now();
      hear(lineOf(heardNow(figures)));
      schedule();
    };
    // The browser reconnects a dropped stream by itself (the silence polls meanwhile), but gives up for good on a
    // refusal or an answer that is not a stream: the page then polls as it does without one.
    const onError = () => {
      if (stopped || !source || !streamGaveUp(source)) return;
      source.close();
      source = undefined;
      schedule();
    };
    source?.addEventListener('line', onLine);
    source?.addEventListener('error', onError);

    // A tab seen again looks at once: its timers may have been held back while it was hidden. A stream's figures
    // are looked at again only when stale.
    const onVisibility = () => {
      if (!hidden() && (!source || Date.now() - heardAt > FIGURES_STALE_MS)) void check();
    };
    schedule();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisibility);
      source?.close();
    };
  }, [poll, ticket]);

  useEffect(() => {
    const tick = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(tick);
  }, []);

  return { place: placeInLine(ticket, servingAt(line, now)), perMinute: line.perMinute, announced };
}
