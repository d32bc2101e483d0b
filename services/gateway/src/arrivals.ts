import type { ServerResponse } from 'node:http';
import client from 'prom-client';

/**
 * The calls of students arriving at the peak (opening their link, loading the assessment, pressing Start): at most
 * `limit` of them in flight to the student service from this gateway, the rest waiting their turn here in the order
 * they came. The calls of students already taking the test (autosaves, uploads, submits, their event streams) never
 * wait here, so they are never queued behind arrivals (docs/waiting-room.md).
 */
export function arrivalGate(deps: { limit: number; registry: client.Registry }) {
  let inFlight = 0;
  const waiting: Array<() => void> = [];
  new client.Gauge({
    name: 'gateway_student_arrivals_waiting',
    help: 'Arriving students’ calls waiting at this gateway for one of STUDENT_ARRIVALS_IN_FLIGHT places',
    registers: [deps.registry],
    collect() {
      this.set(waiting.length);
    },
  });
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else inFlight -= 1;
  };
  return {
    /** Resolves once the call may go on; its place is given back when its answer has been sent or abandoned. */
    async enter(res: ServerResponse): Promise<void> {
      if (inFlight < deps.limit) inFlight += 1;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      // A caller who left while it waited gives its place on at once.
      if (res.destroyed) {
        release();
        return;
      }
      res.once('close', release);
    },
    inFlight: () => inFlight,
  };
}

/** An arriving student's call: the link opened, the assessment loaded, Start pressed (not an attempt's own calls). */
export const isArrival = (method: string, path: string) =>
  (method === 'GET' && /^\/api\/student\/[^/]+(?:\/assessment)?$/.test(path)) ||
  (method === 'POST' && /^\/api\/student\/[^/]+\/start$/.test(path));
