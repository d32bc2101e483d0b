import { posix } from 'node:path';
import type { ContentTranslations, TranslationLanguage } from '@readiness/contracts';
import type { AssessmentContent, Question, Section } from '../assessment';
import { TEXT_LIMITS } from '../translations';
import type { HtmlReference } from './html-text';

/** A file an item carried, with its bytes: stored as an editor's upload when the import is read. */
export interface ImportedFile {
  name: string;
  data: Buffer;
}

export type ImportedQuestion = Omit<Question, 'downloadableFile' | 'hasDownloadableFile'> & {
  file?: ImportedFile;
};

/** An item of the file that is not imported, and why, as the preview lists it. */
export interface LeftOut {
  item: string;
  reason: string;
}

/** The assessment-wide settings a format may carry; what it does not carry is taken from the current version. */
export type ImportedSettings = Partial<
  Pick<
    AssessmentContent,
    'title' | 'description' | 'timeLimit' | 'passingScore' | 'shuffleQuestions' | 'shuffleOptions'
  >
>;

/** A file read into the editor's model: nothing stored yet. */
export interface Imported {
  settings: ImportedSettings;
  sections: Section[];
  questions: ImportedQuestion[];
  leftOut: LeftOut[];
  /** The texts in other languages the file carried (Moodle's multi-language spans), by the imported ids. */
  translations: ContentTranslations;
}

/** What a question file is exported with: its name and bytes, by stored name. */
export type ExportFiles = Map<string, { originalName: string; data: Buffer }>;

/** How an item is named in the preview: its own name, else the start of its text. */
export const itemName = (name: string | undefined, text: string) => {
  const label = (name?.trim() || text.trim() || 'Untitled item').replace(/\s+/g, ' ');
  return label.length > 80 ? `${label.slice(0, 79)}…` : label;
};

/** Option ids as Readiness writes them when a format has none: a, b, c, … */
export const optionId = (index: number) => (index < 26 ? String.fromCharCode(97 + index) : `o${index + 1}`);

/**
 * Collects the questions of an import: ids made unique and short enough (the format's own when it has usable
 * ones), points whole and at least 1, and every text within the editor's limits (a longer one leaves its item out,
 * with the limit as the reason).
 */
export function createCollector() {
  const used = new Set<string>();
  const imported: Imported = { settings: {}, sections: [], questions: [], leftOut: [], translations: {} };

  const uniqueId = (wanted: string | undefined) => {
    const base = (wanted ?? '').trim().replace(/\s+/g, '-');
    if (base && base.length <= 64 && !used.has(base)) return base;
    for (let n = imported.questions.length + 1; ; n++) {
      const id = `q${n}`;
      if (!used.has(id)) return id;
    }
  };

  /** What the editor's save would refuse of a question, said before it is imported. */
  const unfit = (q: Omit<ImportedQuestion, 'id'>): string | undefined => {
    if (q.type === 'multiple_choice') {
      const ids = (q.options ?? []).map((o) => o.id);
      if (ids.length < 2) return 'a multiple choice question needs at least 2 answers';
      if (new Set(ids).size !== ids.length) return 'two of its answers have the same identifier';
    }
    return tooLong(q);
  };

  const tooLong = (q: Omit<ImportedQuestion, 'id'>): string | undefined => {
    if (q.question.length > TEXT_LIMITS.question)
      return `its text is longer than ${TEXT_LIMITS.question} characters`;
    if ((q.options ?? []).some((o) => o.text.length > TEXT_LIMITS.option))
      return `an option is longer than ${TEXT_LIMITS.option} characters`;
    if ((q.fileInstructions ?? '').length > TEXT_LIMITS.fileInstructions)
      return `its file instructions are longer than ${TEXT_LIMITS.fileInstructions} characters`;
    return undefined;
  };

  return {
    imported,
    leaveOut(item: string, reason: string) {
      imported.leftOut.push({ item, reason });
    },
    /** A section by title, made when first named; its id the format's own when given and free. */
    section(title: string, description = '', wantedId?: number): number {
      const found = imported.sections.find(
        (s) => s.title === title && (wantedId === undefined || s.id === wantedId),
      );
      if (found) return found.id;
      const free = (id: number) => !imported.sections.some((s) => s.id === id);
      const id =
        wantedId && wantedId > 0 && free(wantedId)
          ? wantedId
          : Math.max(0, ...imported.sections.map((s) => s.id)) + 1;
      imported.sections.push({
        id,
        title: title.slice(0, TEXT_LIMITS.sectionTitle),
        description: description.slice(0, TEXT_LIMITS.sectionDescription),
      });
      return id;
    },
    /** Adds a question, or leaves it out with the reason; the id it was given, when added. */
    add(name: string, q: Omit<ImportedQuestion, 'id'> & { id?: string }): string | undefined {
      const reason = unfit(q);
      if (reason) {
        imported.leftOut.push({ item: name, reason });
        return undefined;
      }
      const id = uniqueId(q.id);
      used.add(id);
      imported.questions.push({ ...q, id, points: Math.max(1, Math.round(q.points) || 1) });
      return id;
    },
    /** The translations of one language, made when first written to. */
    translationsOf(language: TranslationLanguage) {
      return (imported.translations[language] ??= {});
    },
  };
}

export type Collector = ReturnType<typeof createCollector>;

const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * The one file a package item's text refers to (an image or a link), read from the package at the path `locate`
 * gives; a remote image, more than one file, or a file the package lacks is listed as left out, the question kept.
 */
export function packagedFile(
  collector: Collector,
  name: string,
  references: HtmlReference[],
  locate: (src: string) => string,
  files: Map<string, Buffer>,
): ImportedFile | undefined {
  for (const r of references) {
    if (r.kind === 'img' && HAS_SCHEME.test(r.src)) {
      collector.leaveOut(name, `the image ${r.src.slice(0, 100)} is not kept: remote images are not loaded`);
    }
  }
  const local = references.filter((r) => !HAS_SCHEME.test(r.src));
  if (local.length > 1) {
    collector.leaveOut(
      name,
      `its ${local.length} files are not kept: a question has at most one downloadable file`,
    );
    return undefined;
  }
  if (!local[0]) return undefined;
  const target = locate(local[0].src);
  const data = files.get(target);
  if (!data) collector.leaveOut(name, `its file ${local[0].src.slice(0, 100)} is not in the package`);
  return data && { name: posix.basename(target), data };
}
