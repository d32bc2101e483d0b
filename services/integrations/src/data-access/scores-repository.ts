import { sql } from 'drizzle-orm';
import { rows, type Runner } from '@readiness/kit/db';

export type GradeState = 'none' | 'pending' | 'sent' | 'failed';

export interface NewScore {
  resultId: string;
  launchId: string;
  studentId: string;
  scoreGiven: number;
  passed: boolean;
  attemptNumber: number;
  completedAt: Date;
  /** The launch's line item; null when it gave no grade service (the score is kept for the instructor only). */
  lineItem: string | null;
}

/** Keeps a result's score once (a redelivered event changes nothing); false when it was kept before. */
export async function insertScore(runner: Runner, s: NewScore): Promise<boolean> {
  const inserted = await rows<{ result_id: string }>(
    runner,
    sql`INSERT INTO lti_scores (result_id, launch_id, student_id, score_given, passed, attempt_number, completed_at,
                                line_item, state)
        VALUES (${s.resultId}, ${s.launchId}, ${s.studentId}, ${s.scoreGiven}, ${s.passed}, ${s.attemptNumber},
                ${s.completedAt}, ${s.lineItem}, ${s.lineItem ? 'pending' : 'none'})
        ON CONFLICT (result_id) DO NOTHING RETURNING result_id`,
  );
  return inserted.length === 1;
}

/** A score due to go to its LMS, with what the delivery needs of its launch and registration. */
export interface DueScore {
  resultId: string;
  scoreGiven: number;
  completedAt: Date;
  lineItem: string;
  tries: number;
  createdAt: Date;
  subject: string;
  platform: {
    id: string;
    issuer: string;
    clientId: string;
    authUrl: string;
    jwksUrl: string;
    tokenUrl: string;
    disabled: boolean;
  } | null;
}

/**
 * Takes the score due first and holds its row for the rest of the transaction: other replicas' passes skip it, so
 * one score is with one sender at a time.
 */
export async function takeDueScore(runner: Runner): Promise<DueScore | undefined> {
  const [row] = await rows<{
    result_id: string;
    score_given: string;
    completed_at: Date | string;
    line_item: string;
    tries: number;
    created_at: Date | string;
    subject: string;
    platform_id: string | null;
    issuer: string;
    client_id: string;
    auth_url: string;
    jwks_url: string;
    token_url: string;
    disabled: boolean;
  }>(
    runner,
    sql`SELECT s.result_id, s.score_given, s.completed_at, s.line_item, s.tries, s.created_at, l.subject,
               p.id AS platform_id, p.issuer, p.client_id, p.auth_url, p.jwks_url, p.token_url, p.disabled
        FROM lti_scores s
        JOIN lti_launches l ON l.id = s.launch_id
        LEFT JOIN lti_platforms p ON p.id = l.platform_id
        WHERE s.state = 'pending' AND s.next_try_at <= now()
        ORDER BY s.next_try_at
        LIMIT 1
        FOR UPDATE OF s SKIP LOCKED`,
  );
  if (!row) return undefined;
  return {
    resultId: row.result_id,
    scoreGiven: Number(row.score_given),
    completedAt: new Date(row.completed_at),
    lineItem: row.line_item,
    tries: row.tries,
    createdAt: new Date(row.created_at),
    subject: row.subject,
    platform: row.platform_id
      ? {
          id: row.platform_id,
          issuer: row.issuer,
          clientId: row.client_id,
          authUrl: row.auth_url,
          jwksUrl: row.jwks_url,
          tokenUrl: row.token_url,
          disabled: row.disabled,
        }
      : null,
  };
}

export interface DeliveryOutcome {
  state: 'pending' | 'sent' | 'failed';
  status: number | null;
  answer: string;
  /** When to try again (state pending). */
  nextTryAt?: Date;
}

export async function recordDelivery(runner: Runner, resultId: string, o: DeliveryOutcome): Promise<void> {
  await runner.execute(
    sql`UPDATE lti_scores SET state = ${o.state}, tries = tries + 1, last_status = ${o.status},
          last_answer = ${o.answer}, next_try_at = ${o.nextTryAt ?? new Date()},
          sent_at = CASE WHEN ${o.state} = 'sent' THEN now() ELSE sent_at END, updated_at = now()
        WHERE result_id = ${resultId}`,
  );
}

export interface GradeRecord {
  resultId: string;
  state: GradeState;
  scoreGiven: number;
  tries: number;
  lastStatus: number | null;
  lastAnswer: string | null;
  nextTryAt: Date;
  sentAt: Date | null;
  updatedAt: Date;
  platformName: string | null;
}

export async function findGrade(runner: Runner, resultId: string): Promise<GradeRecord | undefined> {
  const [row] = await rows<{
    result_id: string;
    state: GradeState;
    score_given: string;
    tries: number;
    last_status: number | null;
    last_answer: string | null;
    next_try_at: Date | string;
    sent_at: Date | string | null;
    updated_at: Date | string;
    platform_name: string | null;
  }>(
    runner,
    sql`SELECT s.result_id, s.state, s.score_given, s.tries, s.last_status, s.last_answer, s.next_try_at, s.sent_at,
               s.updated_at, p.name AS platform_name
        FROM lti_scores s JOIN lti_launches l ON l.id = s.launch_id LEFT JOIN lti_platforms p ON p.id = l.platform_id
        WHERE s.result_id = ${resultId}`,
  );
  return (
    row && {
      resultId: row.result_id,
      state: row.state,
      scoreGiven: Number(row.score_given),
      tries: row.tries,
      lastStatus: row.last_status,
      lastAnswer: row.last_answer,
      nextTryAt: new Date(row.next_try_at),
      sentAt: row.sent_at ? new Date(row.sent_at) : null,
      updatedAt: new Date(row.updated_at),
      platformName: row.platform_name,
    }
  );
}

/** Sends a score again from now on (sent or failed before): false when the result has no grade to send. */
export async function rearmGrade(runner: Runner, resultId: string): Promise<boolean> {
  const rearmed = await rows<{ result_id: string }>(
    runner,
    sql`UPDATE lti_scores SET state = 'pending', tries = 0, next_try_at = now(), created_at = now(), updated_at = now()
        WHERE result_id = ${resultId} AND line_item IS NOT NULL AND state <> 'pending' RETURNING result_id`,
  );
  return rearmed.length === 1;
}

/** Links a launch to the student it opened (student.lti-launch.accepted.v1). */
export async function linkLaunch(runner: Runner, launchId: string, studentId: string): Promise<void> {
  await runner.execute(sql`UPDATE lti_launches SET student_id = ${studentId} WHERE id = ${launchId}`);
}

/** A student erased: their launches (with the LMS's name and id for them) and their scores go. */
export async function eraseStudent(runner: Runner, studentId: string): Promise<void> {
  await runner.execute(sql`DELETE FROM lti_scores WHERE student_id = ${studentId}`);
  await runner.execute(sql`DELETE FROM lti_launches WHERE student_id = ${studentId}`);
}

/** A result deleted: its score is not sent (again). */
export async function dropScore(runner: Runner, resultId: string): Promise<void> {
  await runner.execute(sql`DELETE FROM lti_scores WHERE result_id = ${resultId}`);
}

/** A launch as a recorded score needs it: its line item when its grade service lets the tool post scores. */
export async function launchForScore(
  runner: Runner,
  launchId: string,
): Promise<{ ags: unknown } | undefined> {
  const [row] = await rows<{ ags: unknown }>(
    runner,
    sql`SELECT ags FROM lti_launches WHERE id = ${launchId}`,
  );
  return row;
}

/** A learner of one resource link as its instructor sees them: their newest score there, if any. */
export interface RosterRow {
  subject: string;
  name: string;
  firstLaunchAt: Date;
  score: {
    scoreGiven: number;
    passed: boolean;
    completedAt: Date;
    attemptNumber: number;
    state: GradeState;
  } | null;
}

/**
 * The learners who launched one resource link of one LMS (and no one else), by name, each with their newest score
 * from a launch of that link. At most `limit` of them.
 */
export async function linkRoster(
  runner: Runner,
  platformId: string,
  resourceLinkId: string,
  limit = 1000,
): Promise<RosterRow[]> {
  const found = await rows<{
    subject: string;
    name: string;
    first_launch_at: Date | string;
    score_given: string | null;
    passed: boolean | null;
    completed_at: Date | string | null;
    attempt_number: number | null;
    state: GradeState | null;
  }>(
    runner,
    sql`WITH learners AS (
          SELECT subject, (array_agg(name ORDER BY created_at DESC))[1] AS name, min(created_at) AS first_launch_at
          FROM lti_launches
          WHERE platform_id = ${platformId} AND resource_link_id = ${resourceLinkId}
            AND EXISTS (SELECT 1 FROM unnest(roles) AS role WHERE role LIKE '%#Learner')
          GROUP BY subject
        )
        SELECT learners.subject, learners.name, learners.first_launch_at, newest.score_given, newest.passed,
               newest.completed_at, newest.attempt_number, newest.state
        FROM learners
        LEFT JOIN LATERAL (
          SELECT s.score_given, s.passed, s.completed_at, s.attempt_number, s.state
          FROM lti_scores s JOIN lti_launches l ON l.id = s.launch_id
          WHERE l.platform_id = ${platformId} AND l.resource_link_id = ${resourceLinkId}
            AND l.subject = learners.subject
          ORDER BY s.completed_at DESC
          LIMIT 1
        ) newest ON true
        ORDER BY lower(learners.name), learners.subject
        LIMIT ${limit}`,
  );
  return found.map((r) => ({
    subject: r.subject,
    name: r.name,
    firstLaunchAt: new Date(r.first_launch_at),
    score:
      r.score_given === null
        ? null
        : {
            scoreGiven: Number(r.score_given),
            passed: r.passed === true,
            completedAt: new Date(r.completed_at!),
            attemptNumber: r.attempt_number ?? 1,
            state: r.state ?? 'none',
          },
  }));
}

/** When the next pending score is due (null: none), for the sender's pause. */
export async function nextScoreDue(runner: Runner): Promise<Date | null> {
  const [row] = await rows<{ due: Date | string | null }>(
    runner,
    sql`SELECT min(next_try_at) AS due FROM lti_scores WHERE state = 'pending'`,
  );
  return row?.due ? new Date(row.due) : null;
}
