import type { Database, Tx } from '@readiness/kit/db';
import { AppError } from '@readiness/kit/errors';
import type { Logger } from '@readiness/kit/logger';
import type { ObjectStore } from '@readiness/kit/storage';
import { studentAttempt } from '../../data-access/attempts-repository';
import { findVersion } from '../../data-access/versions-repository';
import { tokenHash } from '../tokens';
import type { WaitingRoom } from '../waiting-room';
import { boundedCache, studentView, type AssessmentVersion, type StudentAssessment } from '../versions';
import { createResultWaits, type ResultWaits } from './result-waits';
import { attemptClosed, attemptNotFound } from './messages';
import { attemptIdOrNull, usable } from './invitation-link';
import { isOpen } from './attempt-time';

/** Where a use case's statements go: the pool (each statement its own commit) or an open transaction. */
export type Runner = Database['db'] | Tx;

export interface AttemptsDeps {
  database: Database;
  storage: ObjectStore;
  logger: Logger;
  /** Seconds after the deadline during which a submit is still taken whole. */
  graceSeconds: number;
  /** How long a submit waits for its result before answering 202. */
  resultWaitMs: number;
  /** The most time administrators may add to an attempt, all extensions together, in times its time limit. */
  addedTimeMaxMultiple: number;
  /** How long an invitation's link opens the assessment before it is started (INVITE_TTL_DAYS). */
  inviteTtlDays: number;
  /** The line a new attempt waits in at the peak (absent: every Start starts). */
  waitingRoom?: WaitingRoom;
}

/** What every use case of the student flow shares: its dependencies, the versions in memory, the result waits. */
export interface AttemptsContext extends AttemptsDeps {
  versions: VersionCache;
  resultWaits: ResultWaits;
  /**
   * The version of each attempt this replica started or opened lately (an attempt's version never changes): an
   * autosave that finds its attempt here checks the answers before it reads anything.
   */
  attemptVersions: ReturnType<typeof boundedCache<string>>;
}

/** Attempts whose version is remembered: more than a peak's attempts in progress on one replica. */
const ATTEMPT_VERSIONS_KEPT = 20_000;

export function attemptsContext(deps: AttemptsDeps): AttemptsContext {
  return {
    ...deps,
    versions: createVersionCache(deps.database),
    resultWaits: createResultWaits(deps),
    attemptVersions: boundedCache<string>(ATTEMPT_VERSIONS_KEPT),
  };
}

export type VersionCache = ReturnType<typeof createVersionCache>;

/** The versions attempts are pinned to, and their student views, kept in memory once read (they never change). */
function createVersionCache(database: Database) {
  const versions = boundedCache<AssessmentVersion>(32);
  const views = boundedCache<StudentAssessment>(32);

  const remember = (v: AssessmentVersion) => {
    versions.set(v.versionId, v);
    const view = studentView(v);
    views.set(v.versionId, view);
    return view;
  };

  /**
   * The version, from memory or read once; inside a transaction pass it as `runner`, so a cold cache never asks
   * the pool for a second connection while the transaction holds one (a full pool would wait on itself).
   */
  async function version(versionId: string, runner?: Runner): Promise<AssessmentVersion> {
    const cached = versions.get(versionId);
    if (cached) return cached;
    const found = await findVersion(runner ?? database.db, versionId);
    if (!found) throw new AppError('version_missing', 'The assessment version is not known', 500);
    remember(found);
    return found;
  }

  return {
    version,
    remember,
    view: (versionId: string) => views.get(versionId),
    /** The version's student view, from memory or read once. */
    async studentView(versionId: string, runner?: Runner): Promise<StudentAssessment> {
      const cached = views.get(versionId);
      if (cached) return cached;
      const found = await version(versionId, runner);
      return views.get(versionId) ?? remember(found);
    },
    /** The versions whose student view is in memory: the page read does not send their content again. */
    viewIds: () => views.keys(),
  };
}

/** The link's student and the attempt a write names, which must be in progress and within its time. */
export async function openAttempt(ctx: AttemptsContext, token: string, attemptId: string | undefined) {
  const id = attemptIdOrNull(attemptId);
  const found = await studentAttempt(ctx.database.db, tokenHash(token), id);
  const student = usable(found?.student);
  const attempt = id ? found!.attempt : null;
  if (!attempt) throw attemptNotFound();
  if (!isOpen(attempt, found!.now, ctx.graceSeconds)) throw attemptClosed();
  ctx.attemptVersions.set(attempt.id, attempt.versionId);
  return { student, attempt, now: found!.now };
}
