import { sql } from 'drizzle-orm';
import { rows, type Runner } from '@readiness/kit/db';

/**
 * Takes a launch ticket: true the first time its id is seen, false for one already used (an insert that does
 * nothing, never a look-up first).
 */
export async function takeLaunchTicket(tx: Runner, launchId: string): Promise<boolean> {
  const taken = await rows<{ launch_id: string }>(
    tx,
    sql`INSERT INTO lti_launch_tickets (launch_id) VALUES (${launchId}) ON CONFLICT DO NOTHING RETURNING launch_id`,
  );
  return taken.length === 1;
}

/** Notes which student a taken launch ticket opened. */
export async function noteLaunchStudent(tx: Runner, launchId: string, studentId: string): Promise<void> {
  await tx.execute(
    sql`UPDATE lti_launch_tickets SET student_id = ${studentId} WHERE launch_id = ${launchId}`,
  );
}

/** The student's newest launch from an LMS, or '' when they never came from one. */
export async function latestLaunchOf(runner: Runner, studentId: string): Promise<string> {
  const [row] = await rows<{ launch_id: string }>(
    runner,
    sql`SELECT launch_id FROM lti_launch_tickets WHERE student_id = ${studentId} ORDER BY used_at DESC LIMIT 1`,
  );
  return row?.launch_id ?? '';
}

/**
 * Holds the LMS identity for the rest of the transaction, so two first launches of one person at once make one
 * student: the second waits, then finds the first one's.
 */
export async function lockIdentity(tx: Runner, issuer: string, subject: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`lti ${issuer} ${subject}`}, 0))`);
}

/** The student of an LMS identity, if one launched before. */
export async function studentOfIdentity(
  tx: Runner,
  issuer: string,
  subject: string,
): Promise<string | undefined> {
  const [row] = await rows<{ student_id: string }>(
    tx,
    sql`SELECT student_id FROM lti_identities WHERE issuer = ${issuer} AND subject = ${subject}`,
  );
  return row?.student_id;
}

export async function linkIdentity(tx: Runner, issuer: string, subject: string, studentId: string) {
  await tx.execute(
    sql`INSERT INTO lti_identities (issuer, subject, student_id) VALUES (${issuer}, ${subject}, ${studentId})`,
  );
}
