import type { Database } from '@readiness/kit/db';
import { badRequest, conflict, notFound } from '@readiness/kit/errors';
import type { Logger } from '@readiness/kit/logger';
import { enqueue } from '@readiness/kit/outbox';
import type { ObjectStore } from '@readiness/kit/storage';
import type { AdminDirectory } from '../data-access/admin-directory';
import {
  lockVersions,
  type StoredFile,
  type VersionRecord,
  type VersionsRepository,
} from '../data-access/versions-repository';
import {
  checkContent,
  fileNames,
  normalizeContent,
  type AssessmentContent,
  type AssessmentVersion,
} from './assessment';
import { VERSION_PUBLISHED, versionPublishedPayload } from './events';
import { exportVersion, type ExportFormat } from './export-version';
import { importContent } from './import-content';
import { translationSources, type OutdatedTranslations } from './translation-review';
import { downloadQuestionFile, removeQuestionFile, storeOwnFile, uploadQuestionFile } from './question-files';

const UNKNOWN_ADMIN_NAME = 'Administrator';
export const NO_ASSESSMENT_MESSAGE = 'No assessment found';
const STALE_BASE_MESSAGE =
  'Someone else saved the assessment first: your changes were not saved. Reload to see the current version, then make your changes again.';
const BASE_REQUIRED_MESSAGE =
  "baseVersion is required: name the version your changes are based on, so no one else's save is overwritten";

/** Who acts: the admin of the token, named from auth's admin events when known. */
export interface Actor {
  id: string;
  name: string;
}

/** Stored versions were checked against the domain's rules when they were saved. */
const asVersion = (record: VersionRecord | undefined) => record as AssessmentVersion | undefined;

export interface AssessmentsDeps {
  database: Database;
  repo: VersionsRepository;
  storage: ObjectStore;
  logger: Logger;
  /** Wakes the outbox relay after a commit that enqueued an event. */
  /** Names an admin no event named yet (auth's `/api/auth/me`), when auth's address is known. */
  directory?: AdminDirectory;
}

/** The assessment's use cases: versions (save, roll back, read) and question files. */
export function createAssessments(deps: AssessmentsDeps) {
  const { database, repo } = deps;

  /**
   * The acting admin's name: from auth's admin events, or else asked of auth with the admin's own token (an
   * admin created before this service subscribed) and remembered.
   */
  const actorName = async (adminId: string, bearerToken?: string) => {
    const known = await repo.adminName(adminId);
    if (known) return known;
    const asked = bearerToken ? await deps.directory?.nameOf(bearerToken) : undefined;
    if (asked) await repo.rememberAdmin(adminId, asked);
    return asked ?? UNKNOWN_ADMIN_NAME;
  };

  /**
   * Saves content as a new version that becomes the active one, with its event and audit row in the same
   * transaction. `baseVersion` is the version the admin edited: when another one became active meanwhile,
   * nothing is saved (409).
   */
  async function save(input: {
    content: AssessmentContent;
    changeNotes: string;
    baseVersion?: number;
    actor: Actor;
    /** The translated texts the editor confirmed as still right for the English they are saved with. */
    reviewedTranslations?: OutdatedTranslations;
    /** The first-start seed: only when no version exists at all. */
    onlyIfEmpty?: boolean;
  }): Promise<AssessmentVersion | undefined> {
    const content = normalizeContent(input.content);
    const saved = await database.transaction(async (tx) => {
      await lockVersions(tx);
      const latest = await repo.latestNumber(tx);
      if (input.onlyIfEmpty && latest > 0) return undefined;
      const active = asVersion(await repo.active(tx));
      if (active && input.baseVersion === undefined)
        throw badRequest(BASE_REQUIRED_MESSAGE, 'base_version_required');
      if (active && input.baseVersion !== active.version) throw conflict(STALE_BASE_MESSAGE, 'stale_version');
      const uploaded = await repo.files(fileNames(content), tx);
      checkContent(content, (f) => uploaded.has(f));
      const sources = translationSources(
        content,
        active && { content: active, sources: active.translationSources },
        input.reviewedTranslations,
      );
      const version = asVersion(
        await repo.insertActive(tx, {
          version: latest + 1,
          content,
          translationSources: sources,
          changeNotes: input.changeNotes,
          createdBy: input.actor,
        }),
      )!;
      await enqueue(tx, { name: VERSION_PUBLISHED, payload: versionPublishedPayload(version) });
      await repo.audit(tx, {
        actorId: input.actor.id,
        actorName: input.actor.name,
        action: 'version.saved',
        details: {
          version: version.version,
          basedOn: active?.version ?? null,
          changeNotes: input.changeNotes,
        },
      });
      return version;
    });
    return saved;
  }

  async function version(number: number): Promise<AssessmentVersion> {
    const found = asVersion(await repo.byNumber(number));
    if (!found) throw notFound(`Version ${number} does not exist`);
    return found;
  }

  return {
    actorName,
    save,

    async active(): Promise<AssessmentVersion> {
      const found = asVersion(await repo.active());
      if (!found) throw notFound(NO_ASSESSMENT_MESSAGE);
      return found;
    },

    version,

    /** A version as Moodle XML or a QTI 3.0 package. */
    exportVersion: async (number: number, format: ExportFormat) =>
      exportVersion(deps, await version(number), format),

    /** A Moodle XML file or QTI package read into editor content over the active version's settings; none saved. */
    importFile: async (data: Buffer, maxFileBytes: number, actor: Actor) =>
      importContent(deps, { data, maxFileBytes, current: asVersion(await repo.active()), actor }),

    versions: () => repo.list(),

    auditLog: (limit: number) => repo.auditLog(limit),

    /** Makes an earlier version the active one again; nothing is rewritten, and the version is published again. */
    async activate(version: number, actor: Actor): Promise<AssessmentVersion> {
      const activated = await database.transaction(async (tx) => {
        await lockVersions(tx);
        const target = asVersion(await repo.byNumber(version, tx));
        if (!target) throw notFound(`Version ${version} does not exist`);
        const previous = await repo.active(tx);
        await repo.activate(tx, version);
        const now = { ...target, isActive: true };
        await enqueue(tx, { name: VERSION_PUBLISHED, payload: versionPublishedPayload(now, actor) });
        await repo.audit(tx, {
          actorId: actor.id,
          actorName: actor.name,
          action: 'version.activated',
          details: { version, previous: previous?.version ?? null },
        });
        return now;
      });
      return activated;
    },

    upload: (originalName: string, data: Buffer, actor: Actor) =>
      uploadQuestionFile(deps, originalName, data, actor),
    removeFile: (filename: string, actor: Actor) => removeQuestionFile(deps, filename, actor),
    download: (filename: string) => downloadQuestionFile(deps, filename),
    storeOwnFile: (file: StoredFile, data: Buffer) => storeOwnFile(deps, file, data),
  };
}

export type Assessments = ReturnType<typeof createAssessments>;
