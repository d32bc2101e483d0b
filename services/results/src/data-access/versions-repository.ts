import { sql } from 'drizzle-orm';
import type { AssessmentVersion } from './records';
import { json, rows, type Runner } from '@readiness/kit/db';

interface VersionRow {
  version_id: string;
  version: number;
  title: string;
  description: string;
  time_limit_minutes: number;
  passing_score: number;
  sections: AssessmentVersion['sections'];
  questions: AssessmentVersion['questions'];
  titles: NonNullable<AssessmentVersion['titles']>;
  created_at: Date | string | null;
}

const COLUMNS = sql`version_id, version, title, description, time_limit_minutes, passing_score, sections, questions,
  titles, created_at`;

const toVersion = (r: VersionRow): AssessmentVersion => ({
  versionId: r.version_id,
  version: r.version,
  title: r.title,
  description: r.description,
  timeLimitMinutes: r.time_limit_minutes,
  passingScore: r.passing_score,
  sections: r.sections,
  questions: r.questions,
  titles: r.titles,
  createdAt: r.created_at === null ? null : new Date(r.created_at),
});

/**
 * Keeps a version's copy (its content never changes once published); `activatedAt` is when an event made it
 * the active one, and only a newer activation moves it. A copy kept before titles were (`{}`) takes them from a
 * later delivery.
 */
export async function saveVersion(
  runner: Runner,
  v: AssessmentVersion,
  activatedAt: Date | null,
): Promise<void> {
  await runner.execute(
    sql`INSERT INTO versions (version_id, version, title, description, time_limit_minutes, passing_score,
          sections, questions, titles, created_at, activated_at)
        VALUES (${v.versionId}, ${v.version}, ${v.title}, ${v.description}, ${v.timeLimitMinutes},
          ${v.passingScore}, ${json(v.sections)}, ${json(v.questions)}, ${json(v.titles ?? {})},
          ${v.createdAt?.toISOString() ?? null}::timestamptz, ${activatedAt?.toISOString() ?? null}::timestamptz)
        ON CONFLICT (version_id) DO UPDATE SET activated_at = GREATEST(versions.activated_at, EXCLUDED.activated_at),
          titles = CASE WHEN versions.titles = '{}'::jsonb THEN EXCLUDED.titles ELSE versions.titles END`,
  );
}

export async function findVersion(runner: Runner, versionId: string): Promise<AssessmentVersion | undefined> {
  const [row] = await rows<VersionRow>(
    runner,
    sql`SELECT ${COLUMNS} FROM versions WHERE version_id = ${versionId}`,
  );
  return row && toVersion(row);
}

/** The version activated last, else the newest one known. */
export async function activeVersion(runner: Runner): Promise<AssessmentVersion | undefined> {
  const [row] = await rows<VersionRow>(
    runner,
    sql`SELECT ${COLUMNS} FROM versions ORDER BY activated_at DESC NULLS LAST, version DESC LIMIT 1`,
  );
  return row && toVersion(row);
}

export async function versionByNumber(
  runner: Runner,
  version: number,
): Promise<AssessmentVersion | undefined> {
  const [row] = await rows<VersionRow>(
    runner,
    sql`SELECT ${COLUMNS} FROM versions WHERE version = ${version} ORDER BY created_at DESC NULLS LAST LIMIT 1`,
  );
  return row && toVersion(row);
}

export async function versionNumbers(runner: Runner): Promise<number[]> {
  const found = await rows<{ version: number }>(
    runner,
    sql`SELECT DISTINCT version FROM versions ORDER BY version`,
  );
  return found.map((r) => r.version);
}
