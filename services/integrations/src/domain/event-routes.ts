import { consumers, type QueueName } from '@readiness/contracts';
import type { EventBus } from '@readiness/kit/bus';
import { afterCommit, type Database, type Tx } from '@readiness/kit/db';
import type { Logger } from '@readiness/kit/logger';
import {
  lockEventRoutes,
  routedConfiguration,
  type RoutedConfiguration,
} from '../data-access/event-routes-repository';
import { webhookTypeOf } from './webhooks/payloads';

/**
 * The integrations service's queues that take events only while its configuration needs them (the consumer table's
 * `boundOnDemand`, docs/events.md "Bound on demand"): the webhook queue each event type while an enabled endpoint
 * takes it (a student's deletion while any endpoint exists: it drops their pending deliveries), and the grades queue
 * the results while an LMS connection exists. A product with neither receives none of their deliveries.
 */
function wantedBindings(c: RoutedConfiguration): Array<[QueueName, string[]]> {
  return [
    [
      'integrations.webhooks',
      consumers['integrations.webhooks'].filter((event) => {
        const type = webhookTypeOf(event);
        if (type === 'student.deleted') return c.anyEndpoint;
        return type !== undefined && c.webhookTypes.includes(type);
      }),
    ],
    ['integrations.result-recorded', c.anyPlatform ? [...consumers['integrations.result-recorded']] : []],
  ];
}

/**
 * Keeps the on-demand bindings what the endpoints and LMS connections need, across replicas: each decision takes
 * one advisory lock and reads the configuration under it, so a replica settling from what it read never undoes a
 * binding a change committed after.
 */
export interface EventRoutes {
  /**
   * Last in the transaction of a change to the endpoints or LMS connections: binds what the change needs before it
   * commits (so no event published after the commit misses it; a broker that cannot bind fails the change), and
   * once it committed, unbinds what no longer is.
   */
  follow(tx: Tx): Promise<void>;
  /**
   * In the transaction of a change that can only narrow what the bindings need (a removal, the sender disabling an
   * endpoint that failed too long): once it committed, unbinds what no longer is. It never fails the change.
   */
  settleOnCommit(tx: Tx): void;
  /** The bindings made exactly what the committed configuration needs: at start, and periodically after. */
  settle(): Promise<void>;
  /** Waits for the settles changes started after their commit (before the service closes its bus and database). */
  stop(): Promise<void>;
}

export function eventRoutes(
  database: Database,
  bus: Pick<EventBus, 'bindOnDemand'>,
  logger: Logger,
): EventRoutes {
  const bind = async (tx: Tx, mode: 'add' | 'exactly') => {
    await lockEventRoutes(tx);
    for (const [queue, events] of wantedBindings(await routedConfiguration(tx))) {
      await bus.bindOnDemand(queue, events, mode);
    }
  };
  const settle = () => database.transaction((tx) => bind(tx, 'exactly'));
  const settling = new Set<Promise<void>>();
  const settleOnCommit = (tx: Tx) => {
    afterCommit(tx, () => {
      const settled = settle()
        .catch((err: unknown) =>
          logger.warn(
            { err },
            'could not unbind what the configuration no longer needs; the next settle will',
          ),
        )
        .finally(() => settling.delete(settled));
      settling.add(settled);
    });
  };
  return {
    async follow(tx) {
      await bind(tx, 'add');
      settleOnCommit(tx);
    },
    settleOnCommit,
    settle,
    async stop() {
      await Promise.all([...settling]);
    },
  };
}
