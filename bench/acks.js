'use strict';
/**
 * What acknowledging in batches saves the broker: BENCH_MESSAGES small events (default 20,000) published through
 * the kit's RabbitMQ bus, in batches of 100 as an outbox relay sends them, to one consumer with the services'
 * prefetch (10) and a handler that does nothing, once with the ack window at 0 (an ack frame per message) and once
 * with the default, alternating, BENCH_ROUNDS times each (default 3). Prints RabbitMQ's CPU time (user + system
 * of its beam.smp processes, from /proc) per 1,000 messages, from the first publish to 100 ms after the last
 * message was handled (beside it, what the broker's rate in the 3 s at rest before the arm would account for over
 * the same time), and the ack frames the consumer sent; then waits for the broker to count every ack. The broker serves whatever else runs on the machine too: compare
 * the arms only within one run, over several rounds. Needs `npx tsc -b` first (it loads packages/kit/dist).
 */
const path = require('node:path');
const { randomUUID } = require('node:crypto');
const { brokerCounts, cpuSeconds, serverPids } = require('./lib');

const ROOT = path.join(__dirname, '..');
const { createRabbitBus, DEFAULT_ACK_WINDOW_MS } = require(path.join(ROOT, 'packages/kit/dist/bus'));
const { createLogger } = require(path.join(ROOT, 'packages/kit/dist/logger'));
const { createTestVhost } = require('@readiness/testing');

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BATCH = 100;
const REST_MS = 3_000;
const out = (line) => process.stdout.write(`${line}\n`);

/** Counts every `basic.ack` frame sent by a channel of this process. */
function countAckFrames(channelPrototype) {
  const counter = { frames: 0 };
  const ack = channelPrototype.ack;
  channelPrototype.ack = function countedAck(...args) {
    counter.frames += 1;
    return ack.apply(this, args);
  };
  return counter;
}

const brokerCpu = () => serverPids().RabbitMQ.reduce((sum, pid) => sum + (cpuSeconds(pid) ?? 0), 0);

async function runArm(vhost, ackWindowMs, counter) {
  const logger = createLogger({ name: 'bench-acks', level: 'warn' });
  const event = `bench.acks-${randomUUID().slice(0, 8)}.happened.v1`;
  const queue = `bench.acks-${randomUUID().slice(0, 8)}`;
  const publisher = createRabbitBus({ url: vhost.url, service: 'bench-publisher', logger });
  const consumer = createRabbitBus({ url: vhost.url, service: 'bench-consumer', logger, ackWindowMs });
  await publisher.start();
  await consumer.start();
  let handled = 0;
  let allHandled;
  const done = new Promise((resolve) => (allHandled = resolve));
  await consumer.subscribe({
    queue,
    events: [event],
    handle: async () => {
      handled += 1;
      if (handled === MESSAGES) allHandled();
    },
  });
  const payload = new TextEncoder().encode('x'.repeat(64));
  const ackedBefore = (await brokerCounts(vhost.vhost))?.acknowledged ?? 0;
  // What the broker spends meanwhile on everything else (another run on the machine), measured just before.
  const restBefore = brokerCpu();
  await new Promise((r) => setTimeout(r, REST_MS));
  const restPerSecond = ((brokerCpu() - restBefore) / REST_MS) * 1000;
  const framesBefore = counter.frames;
  const cpuBefore = brokerCpu();
  const started = Date.now();
  for (let sent = 0; sent < MESSAGES; sent += BATCH) {
    await publisher.publish(
      Array.from({ length: Math.min(BATCH, MESSAGES - sent) }, () => ({
        id: randomUUID(),
        name: event,
        occurredAt: new Date(),
        correlationId: randomUUID(),
        payload,
      })),
    );
  }
  await done;
  const handledMs = Date.now() - started;
  // The last acks go out within one window and take the broker well under 100 ms.
  await new Promise((r) => setTimeout(r, 100));
  const cpu = brokerCpu() - cpuBefore;
  const measuredMs = Date.now() - started;
  const frames = counter.frames - framesBefore;
  // Not timed (the management API counts every 5 s): every message was acknowledged, none left for a redelivery.
  while (((await brokerCounts(vhost.vhost))?.acknowledged ?? 0) < ackedBefore + MESSAGES)
    await new Promise((r) => setTimeout(r, 500));
  await consumer.close();
  await publisher.close();
  return {
    cpuPer1000: (cpu / MESSAGES) * 1000,
    restPer1000: ((restPerSecond * measuredMs) / 1000 / MESSAGES) * 1000,
    restPerSecond,
    frames,
    handledMs,
  };
}

async function main() {
  const vhost = await createTestVhost();
  // The channel class the bus's consumer channels are made of, patched before any bus opens one.
  const amqp = require('amqplib');
  const probeConn = await amqp.connect(vhost.url);
  const probe = await probeConn.createChannel();
  const counter = countAckFrames(Object.getPrototypeOf(probe));
  await probeConn.close();
  out(`${MESSAGES} messages a run, prefetch 10, default ack window ${DEFAULT_ACK_WINDOW_MS} ms`);
  out(
    '| run | ack window | RabbitMQ CPU per 1,000 messages | of which at the rate at rest before | ack frames | all handled after |',
  );
  out('| --- | --- | --- | --- | --- | --- |');
  try {
    let run = 0;
    for (let round = 1; round <= ROUNDS; round += 1) {
      for (const windowMs of [0, DEFAULT_ACK_WINDOW_MS]) {
        run += 1;
        const r = await runArm(vhost, windowMs, counter);
        out(
          `| ${run} | ${windowMs} ms | ${(r.cpuPer1000 * 1000).toFixed(0)} ms | ${(r.restPer1000 * 1000).toFixed(0)} ms (${(r.restPerSecond * 1000).toFixed(0)} ms/s) | ${r.frames} | ${(r.handledMs / 1000).toFixed(1)} s |`,
        );
      }
    }
  } finally {
    await vhost.close();
  }
}

main().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});
