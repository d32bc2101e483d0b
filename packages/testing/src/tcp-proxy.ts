import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpProxy {
  host: string;
  port: number;
  /** Destroys every live connection and refuses new ones, as a network partition would. */
  cut(): void;
  /** Accepts connections again. */
  restore(): void;
  close(): Promise<void>;
}

/** A loopback TCP proxy that a test can cut and restore to simulate a broker or database outage. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let open = true;
  const server = net.createServer((client) => {
    if (!open) {
      client.destroy();
      return;
    }
    const upstream = net.connect(target);
    sockets.add(client);
    sockets.add(upstream);
    const teardown = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', teardown).on('close', teardown);
    upstream.on('error', teardown).on('close', teardown);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    cut() {
      open = false;
      for (const s of sockets) s.destroy();
      sockets.clear();
    },
    restore() {
      open = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        open = false;
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
