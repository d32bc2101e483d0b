import { createServer, type AddressInfo } from 'node:net';

/**
 * Ports are drawn below Linux's ephemeral range (32768–60999 by default), which the system hands to outgoing
 * connections: a port chosen there can be taken by a database or broker client between the choice and the
 * moment the service listens on it (a local stack starts a dozen servers after choosing their ports).
 */
const LOW = 20_000;
const HIGH = 32_767;
/** Never the same port twice in one process, though the first is closed again before its server starts. */
const handedOut = new Set<number>();

function listensOn(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address() as AddressInfo;
      server.close(() => resolve(bound));
    });
  });
}

/** A loopback port nothing listens on at the moment of the call (for a server a test starts later). */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < 100; tries++) {
    const candidate = LOW + Math.floor(Math.random() * (HIGH - LOW));
    if (handedOut.has(candidate)) continue;
    if ((await listensOn(candidate)) === candidate) {
      handedOut.add(candidate);
      return candidate;
    }
  }
  // A crowded range: let the system choose, still never handing out one port twice.
  for (;;) {
    const port = await listensOn(0);
    if (port !== undefined && !handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
}
