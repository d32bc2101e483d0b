import { topology, type EventName } from '@readiness/contracts';
import type { ServiceModule, ServiceUses } from './service';

/** What a module runs with: its own declaration, completed by its row of the topology table. */
export interface Declaration {
  publishes: readonly EventName[];
  /** It talks to the bus (it subscribes, or it publishes through its outbox relay). */
  bus: boolean;
  uses: ServiceUses;
}

type Declared = Pick<ServiceModule<never, unknown, unknown>, 'name' | 'publishes' | 'bus' | 'uses'>;

/**
 * A service of the system takes what it publishes and what it reaches (RabbitMQ, object storage, SMTP) from its
 * row of the topology table (proto/src/topology.ts), by its name, and states none of it again (it refuses to
 * start when it does). A service outside the table (a test's) declares them in its module.
 */
export function declarationOf(module: Declared): Declaration {
  const row = topology.find((s) => s.name === module.name);
  if (!row) {
    return {
      publishes: module.publishes ?? [],
      bus: Boolean(module.bus || module.publishes?.length),
      uses: module.uses ?? {},
    };
  }
  const restated = [
    module.publishes && 'publishes',
    module.bus !== undefined && 'bus',
    module.uses?.storage !== undefined && 'uses.storage',
    module.uses?.mailer !== undefined && 'uses.mailer',
  ].filter(Boolean);
  if (restated.length) {
    throw new Error(
      `${module.name} states ${restated.join(', ')} in its module: its row of proto/src/topology.ts says it`,
    );
  }
  return {
    publishes: row.publishes,
    bus: row.uses.rabbitmq,
    uses: { kv: module.uses?.kv, storage: row.uses.s3, mailer: row.uses.smtp },
  };
}
