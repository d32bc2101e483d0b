import { shownPercentage, timestampDate, type EventPayload } from '@readiness/contracts';
import type { Tx } from '@readiness/kit/db';
import { notFound } from '@readiness/kit/errors';
import {
  dropScore,
  eraseStudent,
  findGrade,
  insertScore,
  launchForScore,
  linkLaunch,
  rearmGrade,
  recordDelivery,
  takeDueScore,
  type DeliveryOutcome,
  type DueScore,
  type GradeRecord,
} from '../data-access/scores-repository';
import { reachableUrl, type IntegrationsDeps } from './context';
import { SCORE_SCOPE, TokenRefused, type PlatformTokens } from './platform-token';

export type HandleOnce = <T>(
  consumer: string,
  eventId: string,
  effect: (tx: Tx) => Promise<T>,
) => Promise<{ duplicate: boolean; result?: T }>;

/** What sending grades needs, on top of the service's own. */
export interface GradesDeps extends IntegrationsDeps {
  tokens: PlatformTokens;
  handleOnce: HandleOnce;
  /** After how long a score the LMS never took is given up, in milliseconds. */
  giveUpMs: number;
  /** The first wait after a failed try; each next one doubles, up to `MAX_WAIT_MS`, with jitter. */
  retryBaseMs: number;
}

const MAX_WAIT_MS = 15 * 60_000;
const ANSWER_LIMIT = 1024;

/**
 * The line item a launch's grade service names, when it lets the tool post scores there (the AGS claim's `scope`
 * has the score scope): the LMS gave the activity a column of its gradebook.
 */
export function lineItemOf(ags: unknown): string | undefined {
  if (!ags || typeof ags !== 'object') return undefined;
  const { scope, lineitem } = ags as { scope?: unknown; lineitem?: unknown };
  if (typeof lineitem !== 'string' || !Array.isArray(scope) || !scope.includes(SCORE_SCOPE)) return undefined;
  return lineitem;
}

/**
 * Whether a line item lives where the LMS does: on the origin of its issuer or one of its registered URLs, over a
 * reachable scheme. A launch naming a line item anywhere else is refused, so no launch makes the tool post to a
 * host of the launcher's choosing.
 */
export function lineItemAllowed(
  deps: Pick<IntegrationsDeps, 'allowHttpLoopback'>,
  platform: { issuer: string; authUrl: string; jwksUrl: string; tokenUrl: string },
  lineItem: string,
): boolean {
  let url: URL;
  try {
    url = new URL(lineItem);
  } catch {
    return false;
  }
  if (!reachableUrl(deps, url) || url.username || url.password) return false;
  const origins = [platform.issuer, platform.authUrl, platform.jwksUrl, platform.tokenUrl].flatMap((u) => {
    try {
      return [new URL(u).origin];
    } catch {
      return [];
    }
  });
  return origins.includes(url.origin);
}

/** The line item's scores endpoint: `/scores` after its path, its query kept (AGS 2.0 §3.4). */
export function scoresUrl(lineItem: string): string {
  const url = new URL(lineItem);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/scores`;
  return url.toString();
}

/**
 * Keeps the score of a result whose student came from an LMS (the event names the launch), once per event: to be
 * sent to the launch's line item when it has one, and shown on the instructor's page either way.
 */
export async function keepScore(
  deps: GradesDeps,
  event: EventPayload<'results.result.recorded.v1'>,
  eventId: string,
): Promise<boolean> {
  if (!event.ltiLaunchId) return false;
  const { result: kept } = await deps.handleOnce('integrations.result-recorded', eventId, async (tx) => {
    const launch = await launchForScore(tx, event.ltiLaunchId);
    if (!launch) return false;
    await insertScore(tx, {
      resultId: event.resultId,
      launchId: event.ltiLaunchId,
      studentId: event.studentId,
      scoreGiven: shownPercentage(event.score, event.totalPoints),
      passed: event.passed,
      attemptNumber: event.attemptNumber,
      completedAt: event.completedAt ? timestampDate(event.completedAt) : new Date(),
      lineItem: lineItemOf(launch.ags) ?? null,
    });
    return true;
  });
  return kept === true;
}

export async function linkStudent(deps: GradesDeps, launchId: string, studentId: string, eventId: string) {
  await deps.handleOnce('integrations.lti-launch-accepted', eventId, (tx) =>
    linkLaunch(tx, launchId, studentId),
  );
}

export async function forgetStudent(deps: GradesDeps, studentId: string, eventId: string) {
  await deps.handleOnce('integrations.student-deleted', eventId, (tx) => eraseStudent(tx, studentId));
}

export async function forgetResult(deps: GradesDeps, resultId: string, eventId: string) {
  await deps.handleOnce('integrations.result-deleted', eventId, (tx) => dropScore(tx, resultId));
}

/** The score's JSON as AGS 2.0 defines it (`application/vnd.ims.lis.v1.score+json`). */
export const scoreBody = (s: Pick<DueScore, 'subject' | 'scoreGiven' | 'completedAt'>) => ({
  userId: s.subject,
  scoreGiven: s.scoreGiven,
  scoreMaximum: 100,
  activityProgress: 'Completed',
  gradingProgress: 'FullyGraded',
  timestamp: s.completedAt.toISOString(),
});

/** The wait before try `tries + 1`: doubling from the base, capped, drawn between half and all of it. */
export function retryWait(retryBaseMs: number, tries: number, random = Math.random): number {
  const full = Math.min(retryBaseMs * 2 ** Math.min(tries, 20), MAX_WAIT_MS);
  return Math.round(full / 2 + (full / 2) * random());
}

const failed = (status: number | null, answer: string): DeliveryOutcome => ({
  state: 'failed',
  status,
  answer: answer.slice(0, ANSWER_LIMIT),
});

/** One try at a due score: the LMS's answer decides whether it is sent, tried again later, or given up. */
async function tryScore(deps: GradesDeps, due: DueScore): Promise<DeliveryOutcome> {
  const platform = due.platform;
  if (!platform || platform.disabled) {
    return failed(null, 'The connection with this LMS is turned off or was deleted.');
  }
  if (!lineItemAllowed(deps, platform, due.lineItem)) {
    return failed(null, 'The line item is not on the LMS’s own host; nothing was sent.');
  }
  let outcome: { status: number | null; answer: string; permanent: boolean; ok: boolean };
  try {
    const token = await deps.tokens.token(platform);
    const res = await fetch(scoresUrl(due.lineItem), {
      method: 'POST',
      redirect: 'manual',
      signal: AbortSignal.timeout(10_000),
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/vnd.ims.lis.v1.score+json',
      },
      body: JSON.stringify(scoreBody(due)),
    });
    const answer = (await res.text().catch(() => '')).slice(0, ANSWER_LIMIT);
    if (res.status === 401) deps.tokens.forget(platform.id);
    outcome = {
      status: res.status,
      answer,
      ok: res.status >= 200 && res.status < 300,
      // A refused token is fetched again; a 4xx other than 401, 408 and 429 will not change by asking again.
      permanent: res.status >= 400 && res.status < 500 && ![401, 408, 429].includes(res.status),
    };
  } catch (err) {
    outcome =
      err instanceof TokenRefused
        ? {
            status: err.status,
            answer: `The LMS gave no access token: ${err.answer}`,
            ok: false,
            permanent: false,
          }
        : {
            status: null,
            answer: err instanceof Error ? err.message : String(err),
            ok: false,
            permanent: false,
          };
  }
  if (outcome.ok) return { state: 'sent', status: outcome.status, answer: outcome.answer };
  if (outcome.permanent) return failed(outcome.status, outcome.answer);
  const nextTryAt = new Date(Date.now() + retryWait(deps.retryBaseMs, due.tries));
  if (nextTryAt.getTime() - due.createdAt.getTime() > deps.giveUpMs) {
    return failed(outcome.status, outcome.answer);
  }
  return { state: 'pending', status: outcome.status, answer: outcome.answer, nextTryAt };
}

/**
 * One pass of the grade sender: takes due scores one at a time, each in its own transaction that holds its row
 * while the LMS answers (replicas skip it), and records the outcome in the same transaction. A score the LMS took
 * is sent once; a crash between the LMS's answer and the commit sends it again with the same timestamp, which the
 * LMS keeps as the same score (AGS: the latest timestamp wins). Returns how many were tried.
 */
export async function sendDueScores(deps: GradesDeps, limit = 50): Promise<number> {
  let tried = 0;
  while (tried < limit) {
    const took = await deps.database.transaction(async (tx) => {
      const due = await takeDueScore(tx);
      if (!due) return false;
      const outcome = await tryScore(deps, due);
      await recordDelivery(tx, due.resultId, outcome);
      if (outcome.state !== 'sent') {
        deps.logger.warn(
          { resultId: due.resultId, status: outcome.status, state: outcome.state, tries: due.tries + 1 },
          'grade not taken by the LMS',
        );
      }
      return true;
    });
    if (!took) break;
    tried++;
  }
  return tried;
}

/** A result's grade delivery as an admin sees it; 404 when its student did not come from an LMS. */
export async function gradeOf(deps: IntegrationsDeps, resultId: string): Promise<GradeRecord> {
  const grade = UUID.test(resultId) ? await findGrade(deps.database.db, resultId) : undefined;
  if (!grade) throw notFound('This result has no grade for an LMS');
  return grade;
}

/** "Send again": the score goes to the LMS again from now on (a fresh give-up time). */
export async function sendAgain(deps: IntegrationsDeps, resultId: string): Promise<GradeRecord> {
  const grade = await gradeOf(deps, resultId);
  if (grade.state === 'none') throw notFound('This result has no grade for an LMS');
  await rearmGrade(deps.database.db, resultId);
  return gradeOf(deps, resultId);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
