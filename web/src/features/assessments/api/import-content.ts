import {
  TRANSLATION_LANGUAGES,
  type AssessmentContent,
  type ContentTranslations,
  type ImportMode,
  type ImportedContent,
} from './types';

/**
 * What the editor opens after an import. Replace: the file's content (its settings those the file carried, else the
 * current version's). Append: the content being edited with the file's sections added after its own, their ids and
 * their questions' ids renumbered where they would clash, and the file's translations added under the new ids.
 */
export function contentAfterImport(
  current: AssessmentContent | undefined,
  imported: ImportedContent,
  mode: ImportMode,
): AssessmentContent {
  if (mode === 'replace' || !current) return { ...imported, outdatedTranslations: {} };
  const firstId = Math.max(0, ...current.sections.map((s) => s.id)) + 1;
  const sectionIds = new Map(imported.sections.map((s, i) => [s.id, firstId + i]));
  const taken = new Set(current.questions.map((q) => q.id));
  const freeId = (id: string) => {
    let candidate = id;
    for (let n = 2; taken.has(candidate); n++) candidate = `${id}-${n}`;
    taken.add(candidate);
    return candidate;
  };
  const questionIds = new Map(imported.questions.map((q) => [q.id, freeId(q.id)]));
  return {
    ...current,
    sections: [...current.sections, ...imported.sections.map((s) => ({ ...s, id: sectionIds.get(s.id)! }))],
    questions: [
      ...current.questions,
      ...imported.questions.map((q) => ({
        ...q,
        id: questionIds.get(q.id)!,
        section: sectionIds.get(q.section)!,
      })),
    ],
    translations: withImportedTranslations(
      current.translations,
      imported.translations,
      sectionIds,
      questionIds,
    ),
  };
}

/** The current translations with the imported ones added, under the ids their sections and questions now have. */
function withImportedTranslations(
  current: ContentTranslations,
  imported: ContentTranslations,
  sectionIds: Map<number, number>,
  questionIds: Map<string, string>,
): ContentTranslations {
  const merged: ContentTranslations = { ...current };
  for (const language of TRANSLATION_LANGUAGES) {
    const added = imported[language];
    if (!added) continue;
    const mine = current[language] ?? {};
    const renamed = <T>(texts: Record<string, T> | undefined, ids: (id: string) => string | undefined) =>
      Object.fromEntries(
        Object.entries(texts ?? {}).flatMap(([id, value]) => {
          const now = ids(id);
          return now === undefined ? [] : [[now, value]];
        }),
      );
    merged[language] = {
      ...mine,
      sections: {
        ...mine.sections,
        ...renamed(added.sections, (id) => sectionIds.get(Number(id))?.toString()),
      },
      questions: { ...mine.questions, ...renamed(added.questions, (id) => questionIds.get(id)) },
    };
  }
  return merged;
}

/** How many questions an import makes. */
export const importedQuestionCount = (counts: ImportedCounts) =>
  counts.yes_no + counts.multiple_choice + counts.file_upload;

type ImportedCounts = { yes_no: number; multiple_choice: number; file_upload: number };

/** The stored names of the files an import's questions embed: its own uploads, let go of when it is not saved. */
export const importedFiles = (content: Pick<ImportedContent, 'questions'>) =>
  content.questions.flatMap((q) => (q.downloadableFile ? [q.downloadableFile.filename] : []));
