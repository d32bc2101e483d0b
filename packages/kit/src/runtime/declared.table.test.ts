import { topology } from '@readiness/contracts';
import { z } from 'zod';
import { serviceEnv } from '../config';
import { declarationOf } from './declared';
import { defineService } from './service';

const moduleNamed = (name: string, more: Record<string, unknown> = {}) =>
  defineService({ name, config: z.object(serviceEnv), setup: () => ({}), ...more });

describe('a service module and its row of the topology table', () => {
  test('when a service of the table declares itself by name, then what it publishes and reaches is its row’s', () => {
    for (const row of topology) {
      expect([row.name, declarationOf(moduleNamed(row.name))]).toEqual([
        row.name,
        {
          publishes: row.publishes,
          bus: row.uses.rabbitmq,
          uses: { kv: undefined, storage: row.uses.s3, mailer: row.uses.smtp },
        },
      ]);
    }
  });

  test('when a service of the table states its events or adapters again, then it is refused and told where they are', () => {
    expect(() =>
      declarationOf(moduleNamed('results', { publishes: ['results.result.recorded.v1'] })),
    ).toThrow('results states publishes in its module: its row of proto/src/topology.ts says it');
    expect(() => declarationOf(moduleNamed('notification', { bus: true, uses: { mailer: true } }))).toThrow(
      'notification states bus, uses.mailer in its module',
    );
  });

  test('when a service is not in the table (a test’s), then its module declares what it publishes', () => {
    expect(declarationOf(moduleNamed('echo', { publishes: ['auth.admin.created.v1'] }))).toEqual({
      publishes: ['auth.admin.created.v1'],
      bus: true,
      uses: {},
    });
    expect(declarationOf(moduleNamed('quiet'))).toEqual({ publishes: [], bus: false, uses: {} });
  });
});
