import { useEffect, useState } from 'react';
import { measureConnection } from '../device-check';

export type ConnectionCheck = { status: 'checking' } | { status: 'done'; ms: number | null };

/**
 * Times the connection to the server once the page has loaded, so the look-ups do not compete with it;
 * leaving the page (Start) stops them.
 */
export function useConnectionCheck(token: string): ConnectionCheck {
  const [check, setCheck] = useState<ConnectionCheck>({ status: 'checking' });
  useEffect(() => {
    const stop = new AbortController();
    const run = () => {
      void measureConnection(token, stop.signal).then((ms) => {
        if (!stop.signal.aborted) setCheck({ status: 'done', ms });
      });
    };
    if (document.readyState === 'complete') run();
    else window.addEventListener('load', run, { once: true });
    return () => {
      window.removeEventListener('load', run);
      stop.abort();
    };
  }, [token]);
  return check;
}
