#!/usr/bin/env node
/*
 * What the product's way of using RabbitMQ costs the broker, shape by shape (issue 48): the same messages as 1,500
 * journeys of the peak (5,250 events, 12,750 deliveries, each acknowledged, every publish confirmed), at the peak's
 * pace, on a node of the bench's own set as deployed, once per shape, each adding one thing the product does to the
 * bare journey's way (bench/bare-app.js):
 *
 *   bare                one connection, one confirm channel, a channel per consumer, plain quorum queues
 *   queue arguments     + each queue with a delivery limit and a dead-letter exchange and queue (the product's queues)
 *   mandatory, unrouted + every publish mandatory, the exchange with an alternate exchange and its queue
 *   properties          + the product's message properties and headers (correlation id, type, app id, timestamp)
 *   idle queues         + 40 more queues, each consumed on a channel of its own, that no event reaches
 *   consumers spread    + the consumers spread over 8 connections, as over the product's services
 *   publishers spread   + the publishes spread over 8 connections' confirm channels, as the services' outbox relays
 *   both spread         all three
 *   gathered acks       + acknowledgements gathered for 5 ms and sent with `multiple` (the kit's ChannelAcks)
 *   acks gathered 25 ms   the same, for 25 ms
 *   publishes gathered 25 ms  and each connection's publishes held for 25 ms and sent back to back
 *
 * Prints the node's CPU for each shape (BROKER_SHAPES=name,name runs some). BROKER_SHAPES_RATE (publishes a second, default 120) and
 * BROKER_SHAPES_EVENTS (default 5,250) change the load.
 */
const fs = require('node:fs');
const crypto = require('node:crypto');
const amqp = require('amqplib');
const { startOwnBroker } = require('./own-broker');

const EVENTS = Number(process.env.BROKER_SHAPES_EVENTS ?? 5_250);
const RATE = Number(process.env.BROKER_SHAPES_RATE ?? 120);
const HZ = 100;
const out = (line = '') => process.stdout.write(`${line}\n`);
const EXCHANGE = 'shapes.events';
/** Two kinds of event: one to three queues, one to two, so 5,250 events make 12,750 deliveries. */
const ROUTES = { 'wide.v1': ['q1', 'q2', 'q3'], 'narrow.v1': ['q4', 'q5'] };
const WIDE_SHARE = 2_250 / 5_250;

const cpuOf = (pid) => {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / HZ;
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const PRODUCT = { queueArgs: true, mandatory: true, properties: true };
/** The product's queues and messages, over as many connections as its services, beside its idle queues. */
const SPREAD = { ...PRODUCT, publishConnections: 8, consumeConnections: 8, idleQueues: 40 };
const SHAPES = [
  { name: 'bare' },
  { name: 'queue arguments', queueArgs: true },
  { name: 'mandatory, unrouted', queueArgs: true, mandatory: true },
  { name: 'properties', ...PRODUCT },
  { name: 'idle queues', ...PRODUCT, idleQueues: 40 },
  { name: 'consumers spread', ...PRODUCT, consumeConnections: 8 },
  { name: 'publishers spread', ...PRODUCT, publishConnections: 8 },
  { name: 'both spread', ...SPREAD },
  { name: 'gathered acks', ...SPREAD, gatherAcks: true },
  { name: 'acks gathered 25 ms', ...SPREAD, gatherAcks: true, ackWindowMs: 25 },
  { name: 'publishes gathered 25 ms', ...SPREAD, gatherAcks: true, ackWindowMs: 25, publishWindowMs: 25 },
].filter((s) => !process.env.BROKER_SHAPES || process.env.BROKER_SHAPES.split(',').includes(s.name));

async function declareQueue(ch, name, shape) {
  if (!shape.queueArgs) {
    await ch.assertQueue(name, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
    return;
  }
  await ch.assertExchange(`${name}.dlx`, 'fanout', { durable: true });
  await ch.assertQueue(`${name}.dlq`, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
  await ch.bindQueue(`${name}.dlq`, `${name}.dlx`, '');
  await ch.assertQueue(name, {
    durable: true,
    arguments: { 'x-queue-type': 'quorum', 'x-dead-letter-exchange': `${name}.dlx`, 'x-delivery-limit': 20 },
  });
}

/** Acks each delivery when its handler is done, or gathers them for 5 ms into one `multiple` ack. */
function acker(ch, gather, windowMs = 5) {
  if (!gather) return (msg) => ch.ack(msg);
  let highest;
  let timer;
  return (msg) => {
    highest = msg;
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      ch.ack(highest, true);
    }, windowMs);
  };
}

/** Publishes each message at once, or holds a channel's messages for `windowMs` and sends them back to back. */
function sender(ch, body, windowMs) {
  const publish = (event, props) =>
    new Promise((resolve, reject) =>
      ch.publish(EXCHANGE, event, body, props, (err) => (err ? reject(err) : resolve())),
    );
  if (!windowMs) return { send: publish };
  let held = [];
  return {
    send: (event, props) =>
      new Promise((resolve, reject) => {
        held.push({ event, props, resolve, reject });
        if (held.length > 1) return;
        setTimeout(() => {
          const batch = held;
          held = [];
          for (const m of batch) publish(m.event, m.props).then(m.resolve, m.reject);
        }, windowMs);
      }),
  };
}

async function runShape(broker, shape) {
  const vhost = await broker.vhost(`shapes-${shape.name.replace(/\W+/g, '-')}`);
  const body = crypto.randomBytes(600);
  const connections = [];
  const count = Math.max(shape.publishConnections ?? 1, shape.consumeConnections ?? 1);
  for (let i = 0; i < count; i++) connections.push(await amqp.connect(vhost.url));
  const consumers = connections.slice(0, shape.consumeConnections ?? 1);
  const publishing = connections.slice(0, shape.publishConnections ?? 1);
  const setup = await connections[0].createChannel();
  if (shape.mandatory) {
    await setup.assertExchange(`${EXCHANGE}.unrouted`, 'fanout', { durable: true });
    await setup.assertQueue(`${EXCHANGE}.unrouted`, {
      durable: true,
      arguments: { 'x-queue-type': 'quorum', 'x-max-length': 100_000 },
    });
    await setup.bindQueue(`${EXCHANGE}.unrouted`, `${EXCHANGE}.unrouted`, '');
  }
  await setup.assertExchange(EXCHANGE, 'topic', {
    durable: true,
    ...(shape.mandatory ? { alternateExchange: `${EXCHANGE}.unrouted` } : {}),
  });
  let delivered = 0;
  const queues = [...new Set(Object.values(ROUTES).flat())];
  const idle = Array.from({ length: shape.idleQueues ?? 0 }, (_, i) => `idle${i}`);
  let n = 0;
  for (const q of [...queues, ...idle]) {
    const conn = consumers[n++ % consumers.length];
    const ch = await conn.createChannel();
    await declareQueue(ch, q, shape);
    for (const [event, bound] of Object.entries(ROUTES))
      if (bound.includes(q)) await ch.bindQueue(q, EXCHANGE, event);
    await ch.prefetch(10);
    const ack = acker(ch, shape.gatherAcks, shape.ackWindowMs);
    await ch.consume(q, (msg) => {
      if (!msg) return;
      setImmediate(() => {
        delivered += 1;
        ack(msg);
      });
    });
  }
  const publishers = await Promise.all(
    publishing.map(async (c) => sender(await c.createConfirmChannel(), body, shape.publishWindowMs)),
  );
  const expected = Math.round(EVENTS * WIDE_SHARE) * 3 + (EVENTS - Math.round(EVENTS * WIDE_SHARE)) * 2;
  await sleep(2_000);

  const cpuBefore = cpuOf(broker.pid);
  const started = Date.now();
  const confirms = [];
  for (let i = 0; i < EVENTS; i++) {
    const event = i < Math.round(EVENTS * WIDE_SHARE) ? 'wide.v1' : 'narrow.v1';
    const ch = publishers[i % publishers.length];
    const id = crypto.randomUUID();
    const props = shape.properties
      ? {
          persistent: true,
          mandatory: Boolean(shape.mandatory),
          contentType: 'application/x-protobuf',
          messageId: id,
          type: event,
          correlationId: crypto.randomUUID(),
          timestamp: Math.floor(Date.now() / 1000),
          appId: 'student',
        }
      : { persistent: true, mandatory: Boolean(shape.mandatory), messageId: id };
    confirms.push(ch.send(event, props));
    const due = started + ((i + 1) * 1000) / RATE;
    if (due > Date.now()) await sleep(due - Date.now());
  }
  await Promise.all(confirms);
  while (delivered < expected) await sleep(20);
  await sleep(200); // the last acks reach the broker
  const cpu = cpuOf(broker.pid) - cpuBefore;
  const seconds = (Date.now() - started) / 1000;
  for (const c of connections) await c.close().catch(() => undefined);
  await vhost.close();
  return { cpu, seconds, delivered };
}

async function main() {
  const broker = await startOwnBroker();
  try {
    out(`RabbitMQ node of the bench's own, set as deployed: ${JSON.stringify(broker.settings)}`);
    out(
      `${EVENTS} events a shape at ${RATE} a second; the node's CPU from the start of publishing to the last ack`,
    );
    const idleStart = cpuOf(broker.pid);
    await sleep(20_000);
    const idle = (cpuOf(broker.pid) - idleStart) / 20;
    out(`idle node: ${(idle * 1000).toFixed(1)} ms of CPU a second`);
    for (const shape of SHAPES) {
      const r = await runShape(broker, shape);
      const ms = (r.cpu * 1000) / EVENTS;
      out(
        `${shape.name.padEnd(22)} CPU ${r.cpu.toFixed(2)} s in ${r.seconds.toFixed(1)} s (${ms.toFixed(2)} ms an event, ` +
          `${(((r.cpu - idle * r.seconds) * 1000) / EVENTS).toFixed(2)} ms over the idle node), ${r.delivered} deliveries`,
      );
    }
  } finally {
    broker.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
