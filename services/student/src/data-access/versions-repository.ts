import { sql } from 'drizzle-orm';
import type { TranslationLanguage } from '@readiness/contracts';
import type { AssessmentVersion } from './version-records';
import { rows, type Runner } from '@readiness/kit/db';

/**
 * Keeps a version (a republished one replaces its content). When it is published as active, `activeSince` is the
 * event's time: the active version is the one with the latest, whatever order the events arrive in.
 */
export async function saveVersion(
  runner: Runner,
  v: AssessmentVersion,
  activeSince: Date | null,
): Promise<void> {
  const since = activeSince?.toISOString() ?? null;
  await runner.execute(
    sql`INSERT INTO assessment_versions (version_id, version, title, time_limit_minutes, content, active_since)
        VALUES (${v.versionId}, ${v.version}, ${v.title}, ${v.timeLimit}, ${JSON.stringify(v)}::jsonb,
                ${since}::timestamptz)
        ON CONFLICT (version_id) DO UPDATE SET version = EXCLUDED.version, title = EXCLUDED.title,
          time_limit_minutes = EXCLUDED.time_limit_minutes, content = EXCLUDED.content,
          active_since = GREATEST(assessment_versions.active_since, EXCLUDED.active_since)`,
  );
}

/** The active version's summary: the one published as active last. */
export interface ActiveVersion {
  versionId: string;
  version: number;
  title: string;
  timeLimitMinutes: number;
}

/** The active version's summary as a JSON value (null when none was ever active), for a statement's select list. */
export const ACTIVE_VERSION_JSON = sql`(SELECT json_build_object('versionId', v.version_id, 'version', v.version,
  'title', v.title, 'timeLimitMinutes', v.time_limit_minutes) FROM assessment_versions v
  WHERE v.active_since IS NOT NULL ORDER BY v.active_since DESC LIMIT 1)`;

/** The active version as an invitation names it: its summary and its translated titles, by language. */
export interface InvitationVersion extends ActiveVersion {
  /** The title in each language the version translates it into (blank ones may be there: the caller checks). */
  titles: Partial<Record<TranslationLanguage, string>>;
}

/**
 * The active version, as the invitation mail names it, with the titles of its translations (one statement, read
 * once per invite or import, whatever the number of students).
 */
export async function activeVersionSummary(runner: Runner): Promise<InvitationVersion | undefined> {
  const [row] = await rows<{ active: InvitationVersion | null }>(
    runner,
    sql`SELECT (SELECT json_build_object('versionId', v.version_id, 'version', v.version, 'title', v.title,
          'timeLimitMinutes', v.time_limit_minutes,
          'titles', COALESCE((SELECT jsonb_object_agg(t.key, t.value->>'title')
            FROM jsonb_each(CASE WHEN jsonb_typeof(v.content->'translations') = 'object'
                                 THEN v.content->'translations' ELSE '{}'::jsonb END) t
            WHERE jsonb_typeof(t.value->'title') = 'string'), '{}'::jsonb))
        FROM assessment_versions v WHERE v.active_since IS NOT NULL ORDER BY v.active_since DESC LIMIT 1) AS active`,
  );
  return row?.active ?? undefined;
}

export async function findVersion(runner: Runner, versionId: string): Promise<AssessmentVersion | undefined> {
  const [row] = await rows<{ content: AssessmentVersion }>(
    runner,
    sql`SELECT content FROM assessment_versions WHERE version_id = ${versionId}`,
  );
  return row?.content;
}
