import { useEffect, useState } from 'react';
import { timeLeft } from '../clock';

/**
 * The time left by the server's clock, recomputed from the deadline every second and whenever the tab
 * becomes visible again (a background tab's timers run late; the deadline does not move).
 */
export function useCountdown(deadlineAt: string, offset: number): number {
  const [left, setLeft] = useState(() => timeLeft(deadlineAt, offset));
  useEffect(() => {
    const update = () => setLeft(timeLeft(deadlineAt, offset));
    update();
    const interval = setInterval(update, 1000);
    document.addEventListener('visibilitychange', update);
    return () => {
      clearInterval(interval);
      document.removeEventListener('visibilitychange', update);
    };
  }, [deadlineAt, offset]);
  return left;
}
