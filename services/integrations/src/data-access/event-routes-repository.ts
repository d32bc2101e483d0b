import { sql } from 'drizzle-orm';
import { rows, type Tx } from '@readiness/kit/db';

/** One decider of the service's on-demand bindings at a time, across replicas (docs/events.md, "Bound on demand"). */
const EVENT_ROUTES_LOCK = 7_341_107;

export const lockEventRoutes = (tx: Tx) =>
  tx.execute(sql`SELECT pg_advisory_xact_lock(${EVENT_ROUTES_LOCK})`);

/** What the bindings follow: the types enabled endpoints take, whether any endpoint or LMS connection exists. */
export interface RoutedConfiguration {
  webhookTypes: string[];
  anyEndpoint: boolean;
  anyPlatform: boolean;
}

export async function routedConfiguration(tx: Tx): Promise<RoutedConfiguration> {
  const [row] = await rows<RoutedConfiguration>(
    tx,
    sql`SELECT
      ARRAY(SELECT DISTINCT unnest(events) FROM webhook_endpoints WHERE NOT disabled) AS "webhookTypes",
      EXISTS (SELECT 1 FROM webhook_endpoints) AS "anyEndpoint",
      EXISTS (SELECT 1 FROM lti_platforms) AS "anyPlatform"`,
  );
  return row!;
}
