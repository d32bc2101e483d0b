import amqp, { type ChannelModel, type ConfirmChannel } from 'amqplib';
import { decodeEnvelope } from '@readiness/contracts';
import {
  createTestVhost,
  rewriteUrlPort,
  startTcpProxy,
  type TcpProxy,
  type TestVhost,
} from '@readiness/testing';
import pino from 'pino';
import { Registry } from 'prom-client';
import { createRabbitBus, HEADERS, queueTopology } from '../rabbit';
import { DEFAULT_EXCHANGE, type DeadLetter, type EventBus, type RabbitBusOptions } from '../types';
import type { BusHarness, HarnessOptions } from './contract';

/** What the management API tells of a queue; its figures are sampled, every 5 s by default. */
export interface QueueInfo {
  type: string;
  durable: boolean;
  arguments: Record<string, unknown>;
  /** Counts since the queue was declared: `ack` is messages acknowledged, not frames. */
  message_stats?: { ack?: number; deliver?: number; redeliver?: number };
}

export const silentLogger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

/**
 * One broker vhost per test file, a TCP proxy in front of it that tests cut to simulate outages, and a
 * side connection that goes around the proxy to inject raw bytes and read dead-letter queues.
 */
export class RabbitEnv {
  vhost!: TestVhost;
  proxy!: TcpProxy;
  side!: ChannelModel;
  sideCh!: ConfirmChannel;
  private healTimer?: NodeJS.Timeout;

  async setUp(): Promise<void> {
    this.vhost = await createTestVhost();
    const u = new URL(this.vhost.url);
    this.proxy = await startTcpProxy({ host: u.hostname, port: Number(u.port || 5672) });
    this.side = await amqp.connect(this.vhost.url);
    this.sideCh = await this.side.createConfirmChannel();
  }

  async tearDown(): Promise<void> {
    if (this.healTimer) clearTimeout(this.healTimer);
    await this.side?.close().catch(() => undefined);
    await this.proxy?.close();
    await this.vhost?.close();
  }

  /** The bus connects through the proxy, with quick reconnects so outage tests stay short. */
  createBus(opts: Partial<RabbitBusOptions> & { registry: Registry }): EventBus {
    return createRabbitBus({
      url: rewriteUrlPort(this.vhost.url, this.proxy.port),
      service: 'test',
      logger: silentLogger,
      reconnectDelayMs: { initial: 50, max: 400 },
      publishTimeoutMs: 5_000,
      ...opts,
    });
  }

  /** Cuts the bus's connection now and lets it back in shortly after, like a broker restart. */
  blip(ms = 300): void {
    this.proxy.cut();
    this.healTimer = setTimeout(() => this.proxy.restore(), ms);
  }

  async queueInfo(queue: string): Promise<QueueInfo> {
    const u = new URL(process.env.TEST_AMQP_MANAGEMENT_URL ?? 'http://guest:guest@127.0.0.1:15672');
    const auth = Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString(
      'base64',
    );
    const path = `${encodeURIComponent(this.vhost.vhost)}/${encodeURIComponent(queue)}`;
    const res = await fetch(`${u.protocol}//${u.host}/api/queues/${path}`, {
      headers: { authorization: `Basic ${auth}` },
    });
    if (!res.ok) throw new Error(`queue ${queue}: HTTP ${res.status}`);
    return (await res.json()) as QueueInfo;
  }

  async injectRaw(routingKey: string, body: Uint8Array): Promise<void> {
    this.sideCh.publish(DEFAULT_EXCHANGE, routingKey, Buffer.from(body), { persistent: true });
    await this.sideCh.waitForConfirms();
  }

  private readonly dead = new Map<string, DeadLetter[]>();

  /** Reads (and removes) what the queue's `.dlq` holds, remembering what earlier calls read. */
  async deadLetters(queue: string): Promise<DeadLetter[]> {
    const list = this.dead.get(queue) ?? [];
    this.dead.set(queue, list);
    const dlq = queueTopology(queue).deadLetterQueue;
    for (;;) {
      const msg = await this.sideCh.get(dlq, { noAck: true });
      if (!msg) break;
      const headers = msg.properties.headers ?? {};
      let message: DeadLetter['message'];
      try {
        message = decodeEnvelope(msg.content);
      } catch {
        message = undefined;
      }
      list.push({
        message,
        body: msg.content,
        routingKey: String(headers[HEADERS.originalRoutingKey] ?? msg.fields.routingKey),
        error: String(headers[HEADERS.lastError] ?? ''),
        attempts: Number(headers[HEADERS.attempt] ?? 0),
      });
    }
    return [...list];
  }

  harness(opts: HarnessOptions): Promise<BusHarness> {
    const registry = new Registry();
    const bus = this.createBus({ ...opts, registry });
    return bus.start().then(() => ({
      bus,
      registry,
      injectRaw: (rk, body) => this.injectRaw(rk, body),
      deadLetters: (queue) => this.deadLetters(queue),
      killBeforeAck: async () => this.blip(),
      close: async () => {
        this.proxy.restore();
        await bus.close();
      },
    }));
  }
}
