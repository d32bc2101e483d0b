import type { AssessmentContent, ImportMode, ImportedContent } from './types';

/**
 * What the editor opens after an import. Replace: the file's content (its settings those the file carried, else the
 * current version's). Append: the content being edited with the file's sections added after its own, their ids and
 * their questions' ids renumbered where they would clash.
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
  return {
    ...current,
    sections: [...current.sections, ...imported.sections.map((s) => ({ ...s, id: sectionIds.get(s.id)! }))],
    questions: [
      ...current.questions,
      ...imported.questions.map((q) => ({ ...q, id: freeId(q.id), section: sectionIds.get(q.section)! })),
    ],
  };
}

/** How many questions an import makes. */
export const importedQuestionCount = (counts: ImportedCounts) =>
  counts.yes_no + counts.multiple_choice + counts.file_upload;

type ImportedCounts = { yes_no: number; multiple_choice: number; file_upload: number };
