import { rows, type Database, type Runner, type Tx } from '@readiness/kit/db';
import { sql } from 'drizzle-orm';

/** A version's content as stored: sections and questions are JSON the domain gives their shape. */
export interface VersionContent {
  title: string;
  description: string;
  timeLimit: number;
  passingScore: number;
  sections: readonly unknown[];
  questions: readonly unknown[];
  shuffleQuestions: boolean;
  shuffleOptions: boolean;
  /** The practice question, as JSON the domain gives its shape; null when there is none. */
  practiceQuestion: unknown;
  /** The texts in other languages, as JSON the domain gives its shape; {} when there are none. */
  translations: unknown;
}

export interface VersionRecord extends VersionContent {
  /** What each translated text was written against, as JSON the domain gives its shape; {} when none is kept. */
  translationSources: unknown;
  id: string;
  version: number;
  isActive: boolean;
  changeNotes: string;
  createdAt: Date;
  createdBy: { id: string; name: string };
}

interface VersionRow {
  id: string;
  version: number;
  is_active: boolean;
  title: string;
  description: string;
  time_limit: number;
  passing_score: number;
  sections: unknown[];
  questions: unknown[];
  shuffle_questions: boolean;
  shuffle_options: boolean;
  practice_question: unknown;
  translations: unknown;
  translation_sources: unknown;
  change_notes: string;
  created_at: Date | string;
  created_by_id: string;
  created_by_name: string;
}

const toVersion = (r: VersionRow): VersionRecord => ({
  id: r.id,
  version: r.version,
  isActive: r.is_active,
  title: r.title,
  description: r.description,
  timeLimit: r.time_limit,
  passingScore: r.passing_score,
  sections: r.sections,
  questions: r.questions,
  shuffleQuestions: r.shuffle_questions,
  shuffleOptions: r.shuffle_options,
  practiceQuestion: r.practice_question,
  translations: r.translations,
  translationSources: r.translation_sources,
  changeNotes: r.change_notes,
  createdAt: new Date(r.created_at),
  createdBy: { id: r.created_by_id, name: r.created_by_name },
});

export interface VersionSummary {
  id: string;
  version: number;
  isActive: boolean;
  title: string;
  changeNotes: string;
  createdAt: Date;
  createdBy: { id: string; name: string };
  sectionCount: number;
  questionCount: number;
}

export interface StoredFile {
  filename: string;
  originalName: string;
  size: number;
  mimetype: string;
}

export interface AuditEntry {
  at: Date;
  actorId: string;
  actorName: string;
  action: string;
  details: Record<string, unknown>;
}

/** Only one writer of versions at a time (saves, roll-backs, the first-start seed), across replicas. */
const VERSIONS_LOCK = 7_341_002;

export const lockVersions = (tx: Tx) => tx.execute(sql`SELECT pg_advisory_xact_lock(${VERSIONS_LOCK})`);

const VERSION_COLUMNS = sql`id, version, is_active, title, description, time_limit, passing_score, sections,
  questions, shuffle_questions, shuffle_options, practice_question, translations, translation_sources, change_notes,
  created_at, created_by_id, created_by_name`;

/** The versions, the question files they carry, the audit of both and the admins' names, in one repository. */
export function createVersionsRepository(database: Database) {
  return { ...versionQueries(database), ...fileQueries(database), ...adminQueries(database) };
}

export type VersionsRepository = ReturnType<typeof createVersionsRepository>;

function versionQueries(database: Database) {
  return {
    async active(runner: Runner = database.db): Promise<VersionRecord | undefined> {
      const [row] = await rows<VersionRow>(
        runner,
        sql`SELECT ${VERSION_COLUMNS} FROM assessment_versions WHERE is_active`,
      );
      return row && toVersion(row);
    },
    async byNumber(version: number, runner: Runner = database.db): Promise<VersionRecord | undefined> {
      const [row] = await rows<VersionRow>(
        runner,
        sql`SELECT ${VERSION_COLUMNS} FROM assessment_versions WHERE version = ${version}`,
      );
      return row && toVersion(row);
    },
    async latestNumber(tx: Tx): Promise<number> {
      const [row] = await rows<{ n: number | null }>(
        tx,
        sql`SELECT max(version) AS n FROM assessment_versions`,
      );
      return row?.n ?? 0;
    },
    async list(): Promise<VersionSummary[]> {
      const found = await rows<VersionRow & { section_count: number; question_count: number }>(
        database.db,
        sql`SELECT id, version, is_active, title, change_notes, created_at, created_by_id, created_by_name,
              jsonb_array_length(sections) AS section_count, jsonb_array_length(questions) AS question_count
            FROM assessment_versions ORDER BY version DESC`,
      );
      return found.map((r) => ({
        id: r.id,
        version: r.version,
        isActive: r.is_active,
        title: r.title,
        changeNotes: r.change_notes,
        createdAt: new Date(r.created_at),
        createdBy: { id: r.created_by_id, name: r.created_by_name },
        sectionCount: r.section_count,
        questionCount: r.question_count,
      }));
    },
    /** Adds a version and makes it the only active one. */
    async insertActive(
      tx: Tx,
      input: {
        version: number;
        content: VersionContent;
        translationSources: unknown;
        changeNotes: string;
        createdBy: { id: string; name: string };
      },
    ): Promise<VersionRecord> {
      await tx.execute(sql`UPDATE assessment_versions SET is_active = false WHERE is_active`);
      const c = input.content;
      const [row] = await rows<VersionRow>(
        tx,
        sql`INSERT INTO assessment_versions (version, is_active, title, description, time_limit, passing_score,
              sections, questions, shuffle_questions, shuffle_options, practice_question, translations,
              translation_sources, change_notes, created_by_id, created_by_name)
            VALUES (${input.version}, true, ${c.title}, ${c.description}, ${c.timeLimit}, ${c.passingScore},
              ${JSON.stringify(c.sections)}::jsonb, ${JSON.stringify(c.questions)}::jsonb, ${c.shuffleQuestions},
              ${c.shuffleOptions}, ${c.practiceQuestion == null ? null : JSON.stringify(c.practiceQuestion)}::jsonb,
              ${JSON.stringify(c.translations)}::jsonb, ${JSON.stringify(input.translationSources)}::jsonb,
              ${input.changeNotes},
              ${input.createdBy.id}, ${input.createdBy.name})
            RETURNING ${VERSION_COLUMNS}`,
      );
      return toVersion(row!);
    },
    async activate(tx: Tx, version: number): Promise<void> {
      await tx.execute(sql`UPDATE assessment_versions SET is_active = false WHERE is_active`);
      await tx.execute(sql`UPDATE assessment_versions SET is_active = true WHERE version = ${version}`);
    },
    /** Whether any version's question carries this file, in English or in one of its translations. */
    async isReferenced(filename: string, runner: Runner = database.db): Promise<boolean> {
      const probe = JSON.stringify([{ downloadableFile: { filename } }]);
      const vars = JSON.stringify({ filename });
      const [row] = await rows<{ used: boolean }>(
        runner,
        sql`SELECT EXISTS (SELECT 1 FROM assessment_versions WHERE questions @> ${probe}::jsonb
              OR jsonb_path_exists(translations, '$.*.questions.*.downloadableFile ? (@.filename == $filename)',
                ${vars}::jsonb)) AS used`,
      );
      return row?.used ?? false;
    },
  };
}

function fileQueries(database: Database) {
  return {
    async file(filename: string, runner: Runner = database.db): Promise<StoredFile | undefined> {
      const [row] = await rows<{ filename: string; original_name: string; size: string; mimetype: string }>(
        runner,
        sql`SELECT filename, original_name, size, mimetype FROM assessment_files WHERE filename = ${filename}`,
      );
      return (
        row && {
          filename: row.filename,
          originalName: row.original_name,
          size: Number(row.size),
          mimetype: row.mimetype,
        }
      );
    },
    async files(filenames: string[], runner: Runner = database.db): Promise<Set<string>> {
      if (filenames.length === 0) return new Set();
      const found = await rows<{ filename: string }>(
        runner,
        sql`SELECT filename FROM assessment_files WHERE filename IN (${sql.join(
          filenames.map((f) => sql`${f}`),
          sql`, `,
        )})`,
      );
      return new Set(found.map((r) => r.filename));
    },
    async addFile(runner: Runner, file: StoredFile, uploadedById: string): Promise<void> {
      await runner.execute(
        sql`INSERT INTO assessment_files (filename, original_name, size, mimetype, uploaded_by_id)
            VALUES (${file.filename}, ${file.originalName}, ${file.size}, ${file.mimetype}, ${uploadedById})
            ON CONFLICT (filename) DO NOTHING`,
      );
    },
    async removeFile(tx: Tx, filename: string): Promise<void> {
      await tx.execute(sql`DELETE FROM assessment_files WHERE filename = ${filename}`);
    },
  };
}

/** Who changed the content (the names events brought) and what they did. */
function adminQueries(database: Database) {
  return {
    async adminName(adminId: string): Promise<string | undefined> {
      const [row] = await rows<{ name: string }>(
        database.db,
        sql`SELECT name FROM admin_names WHERE admin_id = ${adminId}`,
      );
      return row?.name;
    },
    async rememberAdmin(adminId: string, name: string): Promise<void> {
      await database.execute(
        sql`INSERT INTO admin_names (admin_id, name) VALUES (${adminId}, ${name})
            ON CONFLICT (admin_id) DO UPDATE SET name = EXCLUDED.name`,
      );
    },
    async audit(
      runner: Runner,
      entry: { actorId: string; actorName: string; action: string; details: Record<string, unknown> },
    ): Promise<void> {
      await runner.execute(
        sql`INSERT INTO assessment_audit (actor_id, actor_name, action, details)
            VALUES (${entry.actorId}, ${entry.actorName}, ${entry.action}, ${JSON.stringify(entry.details)}::jsonb)`,
      );
    },
    async auditLog(limit: number): Promise<AuditEntry[]> {
      const found = await rows<{
        at: Date | string;
        actor_id: string;
        actor_name: string;
        action: string;
        details: Record<string, unknown>;
      }>(
        database.db,
        sql`SELECT at, actor_id, actor_name, action, details FROM assessment_audit ORDER BY id DESC LIMIT ${limit}`,
      );
      return found.map((r) => ({
        at: new Date(r.at),
        actorId: r.actor_id,
        actorName: r.actor_name,
        action: r.action,
        details: r.details,
      }));
    },
  };
}
