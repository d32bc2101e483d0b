import { sql } from 'drizzle-orm';
import { rows, type Database } from '../db';
import { AppError } from '../errors';

/** One side effect outside the database, and the rules for retrying it. */
export interface ClaimedEffect {
  /** What kind of effect, e.g. `mail:admin-password-reset`; keys are unique within a scope. */
  scope: string;
  /** What it is done for, e.g. the event id. */
  key: string;
  /** Longer than the effect can take: a claim older than this is taken to belong to a dead worker. */
  leaseSeconds: number;
  /** Which try this is (1 for the first); the bus counts deliveries. */
  attempt: number;
  /** The try after which a failing effect is given up ('failed'). */
  maxAttempts: number;
  /** A failure that no retry can fix: recorded as final at once, and not thrown. */
  isPermanent?: (err: unknown) => boolean;
  /** The reason recorded for a failure; the error's message by default. */
  describe?: (err: unknown) => string;
}

/** `done`: the effect ran now; `duplicate`: it had already run (or been given up); `rejected`: permanent failure. */
export type ClaimOutcome = 'done' | 'duplicate' | 'rejected';

const MAX_ERROR_LENGTH = 1000;

/**
 * Runs an effect that the database cannot roll back (sending a mail, rendering a PDF to storage) at most once per
 * (scope, key), as far as a lease allows.
 *
 * The claim row is created on first sight and taken with a lease in one conditional upsert, so concurrent
 * deliveries of one event race and only one runs the effect; the others throw a 409 `effect_in_progress` so the
 * bus delivers them again later, when the row says how it went (acknowledging them would lose the effect if the
 * worker holding the claim dies). A claim whose lease ran out is taken over. A failure is recorded and thrown
 * for the bus to retry; on the last allowed attempt, or when `isPermanent` says so, the row becomes 'failed' with
 * the reason. The window that remains is a crash after the outside world accepted the effect and before the row
 * says so: then the effect happens twice, which for a mail is better than never.
 */
export async function runClaimed(
  database: Database,
  claim: ClaimedEffect,
  effect: () => Promise<unknown>,
): Promise<ClaimOutcome> {
  const { db } = database;
  const where = sql`scope = ${claim.scope} AND key = ${claim.key}`;
  // Created and taken in one statement: a new row is inserted running; an existing one is taken only when it is
  // pending or its lease ran out (a concurrent first sight waits for the other insert, then finds it running).
  const lease = sql`now() + make_interval(secs => ${claim.leaseSeconds})`;
  const claimed = await rows<{ key: string }>(
    db,
    sql`INSERT INTO effect_claims AS c (scope, key, status, lease_until)
        VALUES (${claim.scope}, ${claim.key}, 'running', ${lease})
        ON CONFLICT (scope, key) DO UPDATE SET status = 'running', lease_until = ${lease}, updated_at = now()
          WHERE c.status = 'pending' OR (c.status = 'running' AND c.lease_until < now())
        RETURNING key`,
  );
  if (claimed.length === 0) {
    const [row] = await rows<{ status: string }>(db, sql`SELECT status FROM effect_claims WHERE ${where}`);
    if (row?.status === 'done' || row?.status === 'failed') return 'duplicate';
    throw new AppError('effect_in_progress', 'This effect is being carried out by another worker', 409);
  }

  try {
    await effect();
  } catch (err) {
    const permanent = claim.isPermanent?.(err) ?? false;
    const final = permanent || claim.attempt >= claim.maxAttempts;
    const reason = claim.describe?.(err) ?? (err instanceof Error ? err.message : String(err));
    await db.execute(
      sql`UPDATE effect_claims
          SET status = ${final ? 'failed' : 'pending'}, lease_until = NULL, attempts = attempts + 1,
            last_error = ${reason.slice(0, MAX_ERROR_LENGTH)}, updated_at = now()
          WHERE ${where}`,
    );
    if (permanent) return 'rejected';
    throw err;
  }
  await db.execute(
    sql`UPDATE effect_claims
        SET status = 'done', lease_until = NULL, attempts = attempts + 1, last_error = NULL, done_at = now(),
          updated_at = now()
        WHERE ${where}`,
  );
  return 'done';
}
