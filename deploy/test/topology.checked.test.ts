import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parse } from 'yaml';
import { consumerQueues, queuesOf, topology } from '@readiness/contracts';
import { serviceModules } from '../all-in-one/src/service-modules';
import { chartDir, render, repoRoot } from './helm';

const values = parse(readFileSync(path.join(chartDir, 'values.yaml'), 'utf8')) as {
  services: Record<string, unknown>;
};
const names = topology.map((s) => s.name);
const sorted = (list: readonly string[]) => [...list].sort();

/**
 * What the topology table (proto/src/topology.ts) gives every service is read from it, or written from it by
 * `make topology` (deploy/test/topology.generated.test.ts); these are the few places still written by hand.
 */
describe('the topology table (proto/src/topology.ts)', () => {
  test('when the chart lists its services, then they are the table’s, and each renders what its row uses and consumes', () => {
    expect(sorted(Object.keys(values.services))).toEqual(sorted(names));
    const objects = render({ set: ['metrics.alerts.enabled=false'] });
    for (const s of topology) {
      const scaled = objects.find(
        (o) => o.kind === 'ScaledObject' && o.metadata.name === `readiness-${s.name}`,
      ) as { spec: { triggers: Array<{ metadata: { queueName: string } }> } } | undefined;
      if (!scaled) continue;
      const queues = scaled.spec.triggers.map((t) => t.metadata.queueName);
      expect([s.name, sorted(queues)]).toEqual([s.name, sorted(queuesOf(s.name))]);
    }
  });

  test('when a queue is in the consumer table, then its service is in the topology', () => {
    const owners = new Set(consumerQueues.map((q) => q.queue.split('.')[0]));
    expect([...owners].filter((owner) => !names.includes(owner as never))).toEqual([]);
  });

  test('when the table gives a service its own database, then its module declares the migrations to keep it', () => {
    // What it publishes and reaches (RabbitMQ, object storage, SMTP) the module reads from its row by name.
    expect(sorted(Object.keys(serviceModules))).toEqual(sorted(names));
    for (const s of topology) {
      const declared = serviceModules[s.name] as { migrations?: string };
      expect([s.name, 'postgres', Boolean(declared.migrations)]).toEqual([
        s.name,
        'postgres',
        s.uses.postgres,
      ]);
    }
  });

  test('when the code is tested, then every service of the table resolves to its sources', () => {
    const jestConfig = createRequire(__filename)(path.join(repoRoot, 'jest.config.js')) as {
      projects: Array<{ moduleNameMapper?: Record<string, string> }>;
    };
    const mapping = Object.keys(jestConfig.projects[0]!.moduleNameMapper ?? {}).map((k) => new RegExp(k));
    expect(names.filter((n) => !mapping.some((m) => m.test(`@readiness/${n}`)))).toEqual([]);
  });
});
