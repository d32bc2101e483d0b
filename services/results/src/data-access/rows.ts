import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '@readiness/kit/db';

export type Runner = Pick<Tx, 'execute'>;

export async function rows<R>(runner: Runner, query: SQL): Promise<R[]> {
  return ((await runner.execute(query)) as unknown as { rows: R[] }).rows;
}

export const json = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Result ids are UUIDs: any other id names no result (and never reaches PostgreSQL's uuid parser). */
export const isUuid = (id: string) => UUID.test(id);
