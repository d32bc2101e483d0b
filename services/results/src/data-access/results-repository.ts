import { sql, type SQL } from 'drizzle-orm';
import { json, rows, type Runner } from '@readiness/kit/db';
import type { Language, TimelineFact } from '@readiness/contracts';
import type { ResultFilter, ResultRecord, ResultSort, ScoredAnswer, SectionScore } from './records';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Result ids are UUIDs: any other id names no result (and never reaches PostgreSQL's uuid parser). */
const isUuid = (id: string) => UUID.test(id);

interface ResultRow {
  id: string;
  attempt_id: string;
  student_id: string;
  student_name: string;
  student_email: string;
  version_id: string;
  version: number;
  assessment_title: string;
  localized_title: string;
  passing_score: number;
  score: number;
  total_points: number;
  percentage: number;
  passed: boolean;
  attempt_number: number;
  assessment_code: string;
  started_at: Date | string | null;
  completed_at: Date | string;
  time_spent_minutes: number;
  sections: SectionScore[];
  answers: ScoredAnswer[];
  timeline: TimelineFact[];
  language: Language;
}

const COLUMNS = sql`id, attempt_id, student_id, student_name, student_email, version_id, version, assessment_title,
  localized_title, passing_score, score, total_points, percentage, passed, attempt_number, assessment_code, started_at, completed_at,
  time_spent_minutes, sections, answers, timeline, language`;

/** The list leaves the per-question answers out: they are the detail's. */
const LIST_COLUMNS = sql`id, attempt_id, student_id, student_name, student_email, version_id, version,
  assessment_title, localized_title, passing_score, score, total_points, percentage, passed, attempt_number,
  assessment_code, started_at, completed_at, time_spent_minutes, sections, '[]'::jsonb AS answers, '[]'::jsonb AS timeline, language`;

const toResult = (r: ResultRow): ResultRecord => ({
  id: r.id,
  attemptId: r.attempt_id,
  studentId: r.student_id,
  student: { name: r.student_name, email: r.student_email },
  versionId: r.version_id,
  version: r.version,
  assessmentTitle: r.assessment_title,
  // A result recorded before localized titles has none: its title is the English one.
  localizedTitle: r.localized_title || r.assessment_title,
  passingScore: r.passing_score,
  score: r.score,
  totalPoints: r.total_points,
  percentage: r.percentage,
  passed: r.passed,
  canRetake: !r.passed,
  attemptNumber: r.attempt_number,
  assessmentCode: r.assessment_code,
  startedAt: r.started_at === null ? null : new Date(r.started_at),
  completedAt: new Date(r.completed_at),
  timeSpentMinutes: r.time_spent_minutes,
  sections: r.sections,
  answers: r.answers,
  timeline: r.timeline,
  language: r.language,
});

export type NewResult = Omit<ResultRecord, 'id' | 'canRetake'>;

/**
 * Records a result; `undefined` when a unique key is taken (the attempt already has its result, or, rarely, the
 * assessment code belongs to another result: the caller tells the two apart and draws a new code).
 */
export async function insertResult(tx: Runner, r: NewResult): Promise<ResultRecord | undefined> {
  const [row] = await rows<ResultRow>(
    tx,
    sql`INSERT INTO results (attempt_id, student_id, student_name, student_email, version_id, version,
          assessment_title, localized_title, passing_score, score, total_points, percentage, passed, attempt_number,
          assessment_code, started_at, completed_at, time_spent_minutes, sections, answers, timeline, language)
        VALUES (${r.attemptId}, ${r.studentId}, ${r.student.name}, ${r.student.email}, ${r.versionId}, ${r.version},
          ${r.assessmentTitle}, ${r.localizedTitle}, ${r.passingScore}, ${r.score}, ${r.totalPoints}, ${r.percentage}, ${r.passed},
          ${r.attemptNumber}, ${r.assessmentCode}, ${r.startedAt?.toISOString() ?? null}::timestamptz,
          ${r.completedAt.toISOString()}::timestamptz, ${r.timeSpentMinutes}, ${json(r.sections)}, ${json(r.answers)},
          ${json(r.timeline)}, ${r.language})
        ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
  );
  return row && toResult(row);
}

export async function resultOfAttempt(runner: Runner, attemptId: string): Promise<ResultRecord | undefined> {
  const [row] = await rows<ResultRow>(
    runner,
    sql`SELECT ${COLUMNS} FROM results WHERE attempt_id = ${attemptId}`,
  );
  return row && toResult(row);
}

export async function findResult(runner: Runner, id: string): Promise<ResultRecord | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await rows<ResultRow>(runner, sql`SELECT ${COLUMNS} FROM results WHERE id = ${id}`);
  return row && toResult(row);
}

export async function deleteResult(tx: Runner, id: string): Promise<ResultRecord | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await rows<ResultRow>(tx, sql`DELETE FROM results WHERE id = ${id} RETURNING ${COLUMNS}`);
  return row && toResult(row);
}

/** `%`, `_` and `\` match themselves in a search. */
const likePattern = (search: string) => `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function conditions(f: Pick<ResultFilter, 'search' | 'status'>): SQL[] {
  const where: SQL[] = [];
  if (f.status !== 'all') where.push(sql`passed = ${f.status === 'passed'}`);
  if (f.search) {
    const p = likePattern(f.search);
    where.push(sql`(student_name ILIKE ${p} OR student_email ILIKE ${p})`);
  }
  return where;
}

const whereOf = (where: SQL[]) => (where.length ? sql`WHERE ${sql.join(where, sql` AND `)}` : sql``);

/** The sort columns, in index order; the id breaks ties (the code is unique by itself). */
const SORT_COLUMNS: Record<ResultSort, string[]> = {
  completedAt: ['completed_at', 'id'],
  studentName: ['student_name', 'id'],
  score: ['percentage', 'score', 'id'],
  assessmentCode: ['assessment_code'],
};

function orderBy(f: Pick<ResultFilter, 'sortBy' | 'sortOrder'>): SQL {
  const dir = f.sortOrder === 'asc' ? sql.raw('ASC') : sql.raw('DESC');
  return sql.join(
    SORT_COLUMNS[f.sortBy].map((c) => sql`${sql.identifier(c)} ${dir}`),
    sql`, `,
  );
}

/** One page of the filtered list; `total` is counted only when a search narrows it (else the caller knows it). */
export async function listResults(
  runner: Runner,
  f: ResultFilter,
  page: { offset: number; limit: number },
): Promise<{ results: ResultRecord[]; total?: number }> {
  const clause = whereOf(conditions(f));
  // The page's ids first, from the sort index alone (a deep page skips index entries, not table rows), then
  // their rows.
  const found = await rows<ResultRow>(
    runner,
    sql`SELECT ${LIST_COLUMNS} FROM results
        JOIN (SELECT id FROM results ${clause} ORDER BY ${orderBy(f)} LIMIT ${page.limit} OFFSET ${page.offset}) page
        USING (id) ORDER BY ${orderBy(f)}`,
  );
  let total: number | undefined;
  if (f.search) {
    const [count] = await rows<{ n: string | number }>(
      runner,
      sql`SELECT count(*) AS n FROM results ${clause}`,
    );
    total = Number(count?.n ?? 0);
  }
  return { results: found.map(toResult), total };
}

/**
 * The filtered list in batches of `batch`, by keyset on the sort columns (no offset grows with the export), for a
 * streamed export.
 */
export async function* eachResult(
  runner: Runner,
  f: ResultFilter,
  batch = 200,
): AsyncGenerator<ResultRecord[]> {
  const columns = SORT_COLUMNS[f.sortBy];
  const cmp = sql.raw(f.sortOrder === 'asc' ? '>' : '<');
  let after: SQL | undefined;
  for (;;) {
    const where = conditions(f);
    if (after)
      where.push(
        sql`(${sql.join(
          columns.map((c) => sql.identifier(c)),
          sql`, `,
        )}) ${cmp} (${after})`,
      );
    const clause = whereOf(where);
    const found = await rows<ResultRow & Record<string, unknown>>(
      runner,
      sql`SELECT ${LIST_COLUMNS} FROM results ${clause} ORDER BY ${orderBy(f)} LIMIT ${batch}`,
    );
    if (found.length === 0) return;
    yield found.map(toResult);
    if (found.length < batch) return;
    const last = found[found.length - 1]!;
    after = sql.join(
      columns.map((c) => {
        const v = last[c];
        return v instanceof Date ? sql`${v.toISOString()}::timestamptz` : sql`${v}`;
      }),
      sql`, `,
    );
  }
}

export async function recentResults(runner: Runner, limit: number): Promise<ResultRecord[]> {
  const found = await rows<ResultRow>(
    runner,
    sql`SELECT ${LIST_COLUMNS} FROM results ORDER BY completed_at DESC, id DESC LIMIT ${limit}`,
  );
  return found.map(toResult);
}

export interface VersionAnalysis {
  attempts: number;
  /** `attempts` counts the results where the question counted; `skipped`, those where it was optional and left blank. */
  questions: Array<{ questionId: string; attempts: number; correct: number; skipped: number }>;
  sections: Array<{ id: number; meanPercentage: number }>;
  distribution: number[];
}

/** Per question, per section and the spread of percentages over every result of one version. */
export async function analyseVersion(runner: Runner, versionId: string): Promise<VersionAnalysis> {
  const buckets = await rows<{ bucket: number; n: string | number }>(
    runner,
    sql`SELECT least(percentage / 10, 9) AS bucket, count(*) AS n
        FROM results WHERE version_id = ${versionId} GROUP BY 1`,
  );
  const distribution = Array.from({ length: 10 }, () => 0);
  for (const b of buckets) distribution[b.bucket] = Number(b.n);
  const questions = await rows<{
    question_id: string;
    attempts: string | number;
    correct: string | number;
    skipped: string | number;
  }>(
    runner,
    sql`SELECT a->>'questionId' AS question_id,
          count(*) FILTER (WHERE NOT coalesce((a->>'skipped')::boolean, false)) AS attempts,
          count(*) FILTER (WHERE (a->>'isCorrect')::boolean) AS correct,
          count(*) FILTER (WHERE coalesce((a->>'skipped')::boolean, false)) AS skipped
        FROM results, jsonb_array_elements(answers) a
        WHERE version_id = ${versionId} GROUP BY 1`,
  );
  const sections = await rows<{ id: number; mean: string | number | null }>(
    runner,
    sql`SELECT (s->>'id')::int AS id, avg((s->>'percentage')::numeric) AS mean
        FROM results, jsonb_array_elements(sections) s
        WHERE version_id = ${versionId} GROUP BY 1`,
  );
  return {
    attempts: distribution.reduce((sum, n) => sum + n, 0),
    questions: questions.map((q) => ({
      questionId: q.question_id,
      attempts: Number(q.attempts),
      correct: Number(q.correct),
      skipped: Number(q.skipped),
    })),
    sections: sections.map((s) => ({ id: s.id, meanPercentage: Math.round(Number(s.mean ?? 0)) })),
    distribution,
  };
}

export async function audit(
  tx: Runner,
  entry: { actorId: string; action: string; resultId: string; studentId: string },
): Promise<void> {
  await tx.execute(
    sql`INSERT INTO results_audit (actor_id, action, result_id, student_id)
        VALUES (${entry.actorId}, ${entry.action}, ${entry.resultId}, ${entry.studentId})`,
  );
}
