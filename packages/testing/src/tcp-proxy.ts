import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpProxy {
  host: string;
  port: number;
  /** Destroys every live connection and refuses new ones, as a network partition would. */
  cut(): void;
  /**
   * Stops forwarding what clients send while the server's side keeps flowing, as a path that loses one direction
   * would: a consumer keeps receiving deliveries, but its acknowledgements never reach the broker. The connections
   * stay open; `restore()` forwards what was held back.
   */
  stall(): void;
  /** Accepts connections again and ends a stall. */
  restore(): void;
  close(): Promise<void>;
}

interface Pair {
  client: net.Socket;
  upstream: net.Socket;
}

/** A loopback TCP proxy that a test can cut, stall and restore to simulate a broker or database outage. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<Pair>();
  let open = true;
  let stalled = false;
  const server = net.createServer((client) => {
    if (!open) {
      client.destroy();
      return;
    }
    const upstream = net.connect(target);
    const pair = { client, upstream };
    pairs.add(pair);
    const teardown = () => {
      client.destroy();
      upstream.destroy();
      pairs.delete(pair);
    };
    client.on('error', teardown).on('close', teardown);
    upstream.on('error', teardown).on('close', teardown);
    if (stalled) client.pause();
    else client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const destroyAll = () => {
    for (const { client, upstream } of pairs) {
      client.destroy();
      upstream.destroy();
    }
    pairs.clear();
  };
  return {
    host: '127.0.0.1',
    port,
    cut() {
      open = false;
      destroyAll();
    },
    stall() {
      stalled = true;
      for (const { client, upstream } of pairs) {
        client.unpipe(upstream);
        client.pause();
      }
    },
    restore() {
      open = true;
      if (!stalled) return;
      stalled = false;
      for (const { client, upstream } of pairs) client.pipe(upstream);
    },
    close: () =>
      new Promise<void>((resolve) => {
        open = false;
        destroyAll();
        server.close(() => resolve());
      }),
  };
}
