import { useEffect, useState } from 'react';
import { clockOffset } from '../../../lib/clock';

/**
 * This device's time, every second and whenever the tab shows again, with how far the server's clock is ahead of
 * it: one tick for every row's countdown, so the rows change together between two answers of the list.
 *
 * Each answer's `serverNow` is older than the moment it arrived, by the trip back: each reading is at most the true
 * offset, and the largest one seen is the closest to it (a slow answer does not make the countdowns jump back).
 */
export function useServerClock(answer: { serverNow: string; receivedAt: number } | undefined) {
  const [now, setNow] = useState(Date.now);
  const [best, setBest] = useState<number | null>(null);
  const reading = answer ? clockOffset(answer.serverNow, answer.receivedAt) : null;

  useEffect(() => {
    if (reading !== null) setBest((current) => (current === null ? reading : Math.max(current, reading)));
  }, [reading]);

  useEffect(() => {
    const update = () => setNow(Date.now());
    const interval = setInterval(update, 1000);
    document.addEventListener('visibilitychange', update);
    return () => {
      clearInterval(interval);
      document.removeEventListener('visibilitychange', update);
    };
  }, []);

  const readings = [best, reading].filter((r) => r !== null);
  return { now, offset: readings.length > 0 ? Math.max(...readings) : 0 };
}
