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
 * and the journey's own messages as the peak sends them now (3.5 events, 5 deliveries a journey: the integrations
 * service's queues are bound on demand, and none is bound at the peak), with the product's queues, flags and properties:
 *
 *   journey on one connection  every publish and delivery on one connection, as one process would send them
 *   journey as deployed        each event published from its own service's connection, each delivery consumed on its
 *                              consuming service's, the idle queues over the connections of the seven services that
 *                              use the broker
 *
 * Prints the node's CPU for each shape and for a journey's 3.5 events (BROKER_SHAPES=name,name runs some).
 * BROKER_SHAPES_RATE (publishes a second, default 120) and BROKER_SHAPES_EVENTS (default 5,250) change the load; the
 * node takes RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS from the environment (e.g. '+sbwt none' to try the runtime without
 * its schedulers' busy waiting).
 */
const fs = require('node:fs');
const crypto = require('node:crypto');
const amqp = require('amqplib');
const { topology } = require('@readiness/contracts');
const { productRoutes } = require('./bare-journey');
const { startOwnBroker } = require('./own-broker');

const EVENTS = Number(process.env.BROKER_SHAPES_EVENTS ?? 5_250);
const RATE = Number(process.env.BROKER_SHAPES_RATE ?? 120);
const HZ = 100;
const out = (line = '') => process.stdout.write(`${line}\n`);
const EXCHANGE = 'shapes.events';
/** Two kinds of event: one to three queues, one to two, so 5,250 events make 12,750 deliveries. */
const ROUTES = { 'wide.v1': ['q1', 'q2', 'q3'], 'narrow.v1': ['q4', 'q5'] };
const WIDE_SHARE = 2_250 / 5_250;

/**
 * The journey as the peak runs it now, from the contracts: its four events and the queues each is delivered to
 * (bare-journey.js's `productRoutes`, as deployed with no webhook endpoint and no LMS connection), each published by
 * the service whose topology lists it; the last, the certificate's, for the passing half only. A queue is consumed by
 * the service its name begins with; every service that uses the broker has a connection of its own (DESIGN.md §3).
 */
function journeyMessages() {
  const routes = productRoutes();
  const events = Object.keys(routes);
  return events.map((event, i) => ({
    event,
    share: i === events.length - 1 ? 0.5 : 1,
    from: topology.find((s) => s.publishes.includes(event)).name,
    queues: routes[event],
  }));
}
const BUS_SERVICES = topology.filter((s) => s.uses.rabbitmq).map((s) => s.name);

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
  { name: 'journey on one connection', ...PRODUCT, journey: true, idleQueues: 40 },
  { name: 'journey as deployed', ...PRODUCT, journey: true, idleQueues: 40, byService: true },
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

/** Which journey event the i-th publish is, in the journey's shares, spread evenly over the run. */
function journeyEvent(journey, i) {
  const total = journey.reduce((sum, e) => sum + e.share, 0);
  let at = ((i * 0.6180339887) % 1) * total;
  for (const e of journey) {
    if (at < e.share) return e;
    at -= e.share;
  }
  return journey[journey.length - 1];
}

/**
 * Where a shape's messages travel: the connections it opens, each queue with the events bound to it and the connection
 * it is consumed on, the connections the idle queues are spread over, and for the i-th publish its event and the
 * connection whose confirm channel sends it.
 */
function planOf(shape) {
  if (shape.journey) {
    const journey = journeyMessages();
    const on = (service) => (shape.byService ? service : 'one');
    const connections = shape.byService ? BUS_SERVICES : ['one'];
    return {
      connections,
      queues: journey.flatMap(({ event, queues }) =>
        queues.map((queue) => ({ queue, events: [event], on: on(queue.split('.')[0]) })),
      ),
      idleOn: connections,
      publish: (i) => {
        const e = journeyEvent(journey, i);
        return { event: e.event, on: on(e.from), appId: e.from };
      },
    };
  }
  const count = Math.max(shape.publishConnections ?? 1, shape.consumeConnections ?? 1);
  const connections = Array.from({ length: count }, (_, i) => `c${i}`);
  const consumers = connections.slice(0, shape.consumeConnections ?? 1);
  const publishing = connections.slice(0, shape.publishConnections ?? 1);
  const wide = Math.round(EVENTS * WIDE_SHARE);
  return {
    connections,
    queues: [...new Set(Object.values(ROUTES).flat())].map((queue, n) => ({
      queue,
      events: Object.keys(ROUTES).filter((event) => ROUTES[event].includes(queue)),
      on: consumers[n % consumers.length],
    })),
    idleOn: consumers,
    publish: (i) => ({
      event: i < wide ? 'wide.v1' : 'narrow.v1',
      on: publishing[i % publishing.length],
      appId: 'student',
    }),
  };
}

async function runShape(broker, shape) {
  const vhost = await broker.vhost(`shapes-${shape.name.replace(/\W+/g, '-')}`);
  const body = crypto.randomBytes(600);
  const plan = planOf(shape);
  const connections = new Map();
  for (const name of plan.connections) connections.set(name, await amqp.connect(vhost.url));
  const setup = await connections.get(plan.connections[0]).createChannel();
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
  const idle = Array.from({ length: shape.idleQueues ?? 0 }, (_, i) => ({
    queue: `idle${i}`,
    events: [],
    on: plan.idleOn[(plan.queues.length + i) % plan.idleOn.length],
  }));
  for (const { queue, events, on } of [...plan.queues, ...idle]) {
    const ch = await connections.get(on).createChannel();
    await declareQueue(ch, queue, shape);
    for (const event of events) await ch.bindQueue(queue, EXCHANGE, event);
    await ch.prefetch(10);
    const ack = acker(ch, shape.gatherAcks, shape.ackWindowMs);
    await ch.consume(queue, (msg) => {
      if (!msg) return;
      setImmediate(() => {
        delivered += 1;
        ack(msg);
      });
    });
  }
  const sends = Array.from({ length: EVENTS }, (_, i) => plan.publish(i));
  const publishers = new Map();
  for (const { on } of sends)
    if (!publishers.has(on))
      publishers.set(
        on,
        sender(await connections.get(on).createConfirmChannel(), body, shape.publishWindowMs),
      );
  const expected = sends.reduce(
    (sum, { event }) => sum + plan.queues.filter((q) => q.events.includes(event)).length,
    0,
  );
  await sleep(2_000);

  const cpuBefore = cpuOf(broker.pid);
  const started = Date.now();
  const confirms = [];
  for (let i = 0; i < EVENTS; i++) {
    const { event, on, appId } = sends[i];
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
          appId,
        }
      : { persistent: true, mandatory: Boolean(shape.mandatory), messageId: id };
    confirms.push(publishers.get(on).send(event, props));
    const due = started + ((i + 1) * 1000) / RATE;
    if (due > Date.now()) await sleep(due - Date.now());
  }
  await Promise.all(confirms);
  while (delivered < expected) await sleep(20);
  await sleep(200); // the last acks reach the broker
  const cpu = cpuOf(broker.pid) - cpuBefore;
  const seconds = (Date.now() - started) / 1000;
  for (const c of connections.values()) await c.close().catch(() => undefined);
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
      const perJourney = (r.cpu * 1000 * 3.5) / EVENTS;
      out(
        `${shape.name.padEnd(22)} CPU ${r.cpu.toFixed(2)} s in ${r.seconds.toFixed(1)} s (${ms.toFixed(2)} ms an event, ` +
          `${(((r.cpu - idle * r.seconds) * 1000) / EVENTS).toFixed(2)} ms over the idle node), ${r.delivered} deliveries, ` +
          `${perJourney.toFixed(2)} ms a journey's 3.5 events`,
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
