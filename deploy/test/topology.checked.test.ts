import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parse } from 'yaml';
import { consumerQueues, queuesOf, topology } from '@readiness/contracts';
import { assessmentService } from '@readiness/assessment';
import { authService } from '@readiness/auth';
import { gatewayService } from '@readiness/gateway';
import { notificationService } from '@readiness/notification';
import { reportService } from '@readiness/report';
import { resultsService } from '@readiness/results';
import { studentService } from '@readiness/student';
import { chartDir, repoRoot } from './helm';

/** What each service module declares (the runtime starts what it declares and nothing else). */
const modules = {
  auth: authService,
  assessment: assessmentService,
  student: studentService,
  results: resultsService,
  report: reportService,
  notification: notificationService,
  gateway: gatewayService,
} as const;

interface ChartService {
  uses?: Record<string, boolean>;
  keda?: { enabled?: boolean; queues?: string[] };
}
const values = parse(readFileSync(path.join(chartDir, 'values.yaml'), 'utf8')) as {
  services: Record<string, ChartService>;
};
const names = topology.map((s) => s.name);
const sorted = (list: readonly string[]) => [...list].sort();

describe('the topology table (proto/src/topology.ts)', () => {
  test('when the chart lists its services, then they are the table’s, each using what the table says', () => {
    expect(sorted(Object.keys(values.services))).toEqual(sorted(names));
    for (const s of topology) {
      const uses = values.services[s.name]?.uses ?? {};
      const declared = Object.fromEntries(Object.entries(s.uses).filter(([, used]) => used));
      expect([s.name, uses]).toEqual([s.name, declared]);
    }
  });

  test('when KEDA scales a service on its queues, then the queues are exactly the ones it consumes', () => {
    for (const s of topology) {
      const keda = values.services[s.name]?.keda;
      if (!keda?.enabled) continue;
      expect([s.name, sorted(keda.queues ?? [])]).toEqual([s.name, sorted(queuesOf(s.name))]);
    }
  });

  test('when a queue is in the consumer table, then its service is in the topology', () => {
    const owners = new Set(consumerQueues.map((q) => q.queue.split('.')[0]));
    expect([...owners].filter((owner) => !names.includes(owner as never))).toEqual([]);
  });

  test('when the table gives a service its own database, then its module declares the migrations to keep it', () => {
    // What it publishes and reaches (RabbitMQ, object storage, SMTP) the module reads from its row by name.
    expect(sorted(Object.keys(modules))).toEqual(sorted(names));
    for (const s of topology) {
      expect([s.name, 'postgres', Boolean(modules[s.name].migrations)]).toEqual([s.name, 'postgres', s.uses.postgres]);
    }
  });

  test('when the images are built and the code is tested, then every service of the table has its image and its jest mapping', () => {
    const skaffold = parse(readFileSync(path.join(repoRoot, 'skaffold.yaml'), 'utf8')) as {
      build: { artifacts: Array<{ image: string }> };
    };
    expect(sorted(skaffold.build.artifacts.map((a) => a.image))).toEqual(
      sorted(names.map((n) => `readiness-${n}`)),
    );
    const jestConfig = createRequire(__filename)(path.join(repoRoot, 'jest.config.js')) as {
      projects: Array<{ moduleNameMapper?: Record<string, string> }>;
    };
    const mapping = Object.keys(jestConfig.projects[0]!.moduleNameMapper ?? {}).map((k) => new RegExp(k));
    expect(names.filter((n) => !mapping.some((m) => m.test(`@readiness/${n}`)))).toEqual([]);
  });
});
