import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import amqp from 'amqplib';
import { Client } from 'pg';
import { serverUrl } from './servers';
import {
  createTestDatabase,
  createTestVhost,
  eventually,
  freePort,
  lateBound,
  startTcpProxy,
  rewriteUrlPort,
} from '.';

describe('testing kit', () => {
  test('when a late-bound object is used before its hook made it, then it says so; after, every use reaches it', () => {
    const hook: { made?: { n: number; twice(): number } } = {};
    const late = lateBound(() => hook.made, 'the counter');
    expect(() => late.n).toThrow('the counter is not there yet');
    hook.made = {
      n: 2,
      twice() {
        return this.n * 2;
      },
    };
    expect(late.n).toBe(2);
    const { twice } = late;
    expect(twice()).toBe(4);
    late.n = 3;
    expect(hook.made.n).toBe(3);
    expect('twice' in late).toBe(true);
  });

  test('when a test database is created, then it is empty and usable, and gone after close', async () => {
    const db = await createTestDatabase();
    const client = new Client({ connectionString: db.url });
    await client.connect();
    const { rows } = await client.query(
      "select count(*)::int as n from pg_tables where schemaname = 'public'",
    );
    expect(rows[0].n).toBe(0);
    await client.end();
    await db.close();
    const again = new Client({ connectionString: db.url });
    await expect(again.connect()).rejects.toThrow(/does not exist/);
  });

  test('when a vhost is created, then a connection through a cut proxy fails and works after restore', async () => {
    const vhost = await createTestVhost();
    const target = new URL(vhost.url);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5672) });
    const viaProxy = rewriteUrlPort(vhost.url, proxy.port);
    const conn = await amqp.connect(viaProxy);
    const closed = new Promise((resolve) => conn.on('close', resolve));
    conn.on('error', () => undefined);
    proxy.cut();
    await closed;
    await expect(amqp.connect(viaProxy)).rejects.toThrow();
    proxy.restore();
    const again = await amqp.connect(viaProxy);
    await again.close();
    await proxy.close();
    await vhost.close();
  });

  test('when a proxy stalls, then the server still talks to the client but hears nothing until restore', async () => {
    const heard: string[] = [];
    let serverSide: net.Socket | undefined;
    const server = net.createServer((socket) => {
      serverSide = socket;
      socket.write('hello\n');
      socket.on('data', (chunk: Buffer) => {
        heard.push(chunk.toString());
        socket.write('ack\n');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const proxy = await startTcpProxy({
      host: '127.0.0.1',
      port: (server.address() as net.AddressInfo).port,
    });
    const client = net.connect(proxy.port, '127.0.0.1');
    let received = '';
    client.on('data', (chunk: Buffer) => (received += chunk.toString()));
    await eventually(() => received === 'hello\n', 'the greeting');
    proxy.stall();
    client.write('one');
    serverSide!.write('during\n');
    await eventually(() => received === 'hello\nduring\n', 'what the server sends during the stall');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(heard).toEqual([]);
    proxy.restore();
    await eventually(() => received === 'hello\nduring\nack\n', 'the reply after restore');
    expect(heard).toEqual(['one']);
    client.destroy();
    await proxy.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});

describe('eventually', () => {
  test('when a check fails, answers false, then holds, then its value is returned', async () => {
    let calls = 0;
    const value = await eventually(() => {
      calls++;
      if (calls === 1) throw new Error('not yet');
      return calls === 2 ? false : 'done';
    });
    expect(value).toBe('done');
    expect(calls).toBe(3);
  });

  test('when a check never holds, then it rejects naming what it waited for and the last failure', async () => {
    await expect(
      eventually(
        () => {
          throw new Error('still broken');
        },
        'the thing',
        100,
      ),
    ).rejects.toThrow('timed out waiting for the thing: still broken');
  });
});

describe('freePort', () => {
  test('when a stack asks for many ports, then each is different, below the ephemeral range, and free to listen on', async () => {
    const ports = [];
    for (let i = 0; i < 40; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
    expect(ports.every((p) => p >= 20_000 && p < 32_768)).toBe(true);
    const servers = await Promise.all(
      ports.map(
        (port) =>
          new Promise<net.Server>((resolve, reject) => {
            const server = net.createServer();
            server.once('error', reject);
            server.listen(port, '127.0.0.1', () => resolve(server));
          }),
      ),
    );
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  });
  test('when databases are made from migrations, then each is a copy of one template per set of migration files, and a file whose text changed makes a new one', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'template-migrations-'));
    const admin = new Client({ connectionString: await serverUrl('postgres') });
    await admin.connect();
    const templatesOf = async () =>
      (
        await admin.query<{ datname: string }>(
          "SELECT datname FROM pg_database WHERE datistemplate AND datname LIKE 'readiness_template_%' ORDER BY 1",
        )
      ).rows.map((r) => r.datname);
    const tablesIn = async (url: string) => {
      const client = new Client({ connectionString: url });
      await client.connect();
      try {
        const { rows } = await client.query<{ tablename: string }>(
          "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1",
        );
        return rows.map((r) => r.tablename);
      } finally {
        await client.end();
      }
    };
    try {
      writeFileSync(path.join(dir, '0001_first.sql'), 'CREATE TABLE first (id int);');
      const before = await templatesOf();
      const [one, two] = await Promise.all([
        createTestDatabase({ migrations: [dir] }),
        createTestDatabase({ migrations: [dir] }),
      ]);
      const made = (await templatesOf()).filter((name) => !before.includes(name));
      expect(made).toHaveLength(1);
      expect(await tablesIn(one.url)).toEqual(['first', 'schema_migrations']);
      expect(await tablesIn(two.url)).toEqual(['first', 'schema_migrations']);
      await Promise.all([one.close(), two.close()]);

      writeFileSync(path.join(dir, '0001_first.sql'), 'CREATE TABLE first (id int, name text);');
      const three = await createTestDatabase({ migrations: [dir] });
      const now = (await templatesOf()).filter((name) => !before.includes(name));
      expect(now).toHaveLength(1);
      expect(now).not.toEqual(made);
      const columns = new Client({ connectionString: three.url });
      await columns.connect();
      const { rows } = await columns.query<{ column_name: string }>(
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'first' ORDER BY ordinal_position",
      );
      await columns.end();
      expect(rows.map((r) => r.column_name)).toEqual(['id', 'name']);
      await three.close();
      for (const name of now) {
        await admin.query(`ALTER DATABASE "${name}" IS_TEMPLATE false`);
        await admin.query(`DROP DATABASE "${name}"`);
      }
    } finally {
      await admin.end();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('when a vhost is handed back, then the next one this process asks for is the same vhost with nothing left in it', async () => {
    const first = await createTestVhost();
    const conn = await amqp.connect(first.url);
    const channel = await conn.createChannel();
    await channel.assertExchange('left.behind', 'topic');
    await channel.assertQueue('left.behind.queue');
    await conn.close();
    await first.close();

    const second = await createTestVhost();
    try {
      expect(second.vhost).toBe(first.vhost);
      const again = await amqp.connect(second.url);
      again.on('error', () => undefined);
      try {
        const probe = await again.createChannel();
        probe.on('error', () => undefined);
        await expect(probe.checkQueue('left.behind.queue')).rejects.toThrow(/NOT_FOUND/);
        const other = await again.createChannel();
        other.on('error', () => undefined);
        await expect(other.checkExchange('left.behind')).rejects.toThrow(/NOT_FOUND/);
      } finally {
        await again.close().catch(() => undefined);
      }
    } finally {
      await second.close();
    }
  });
});
