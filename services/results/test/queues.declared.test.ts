import { readFileSync } from 'node:fs';
import path from 'node:path';
import amqp from 'amqplib';
import { parse } from 'yaml';
import { useResults } from './harness';

jest.setTimeout(60_000);

const h = useResults('real');

const chartQueues = () =>
  // The chart's KEDA queues: the service's row of the topology it is given (`make topology`).
  (
    parse(readFileSync(path.join(__dirname, '../../../charts/readiness/topology.yaml'), 'utf8')) as {
      services: { results: { queues: string[] } };
    }
  ).services.results.queues;

test('when the service starts on RabbitMQ, then every queue the chart scales on is one it declared', async () => {
  expect([...chartQueues()].sort()).toEqual([
    'results.attempt-started',
    'results.attempt-submitted',
    'results.export-requested',
    'results.invitation-resent',
    'results.student-deleted',
    'results.student-invited',
    'results.version-published',
  ]);
  const connection = await amqp.connect(h.amqpUrl!);
  try {
    for (const queue of chartQueues()) {
      // checkQueue closes the channel when the queue does not exist: one channel per check.
      const channel = await connection.createChannel();
      await expect(channel.checkQueue(queue)).resolves.toMatchObject({ queue });
      await channel.close();
    }
  } finally {
    await connection.close();
  }
});
