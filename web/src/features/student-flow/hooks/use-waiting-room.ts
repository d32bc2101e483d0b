import { useEffect, useRef, useState } from 'react';
import { useLazyGetWaitingRoomQuery } from '../api/student-api';
import { isAdmitted, placeInLine, pollDelay, servingAt, type LineFigures } from '../waiting-room';

const hidden = () => document.visibilityState === 'hidden';

/**
 * The student's place in line while they wait: the line's figures polled every 5–9 s (9 s while the tab is
 * hidden, and at once when it is seen again), carried forward each second by the admission rate. A poll that fails
 * keeps the last figures and the next one tries again. `onAdmitted` is called for each poll that finds the ticket
 * served. `announced` is the place as of the last poll: what a screen reader is told, not every second's figure.
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
    const schedule = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void check(), pollDelay(hidden()));
    };
    const check = async () => {
      if (inFlight) return;
      inFlight = true;
      try {
        const figures = await poll().unwrap();
        if (stopped) return;
        const heard = {
          serving: figures.serving,
          perMinute: figures.perMinute,
          receivedAt: figures.receivedAt,
        };
        setLine(heard);
        setAnnounced(placeInLine(ticket, heard.serving));
        if (isAdmitted(ticket, heard)) admitted.current();
      } catch {
        // The last figures stand; the next poll tries again.
      } finally {
        inFlight = false;
        if (!stopped) schedule();
      }
    };
    // A tab seen again looks at once: its timers may have been held back while it was hidden.
    const onVisibility = () => {
      if (!hidden()) void check();
    };
    schedule();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [poll, ticket]);

  useEffect(() => {
    const tick = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(tick);
  }, []);

  return { place: placeInLine(ticket, servingAt(line, now)), perMinute: line.perMinute, announced };
}
