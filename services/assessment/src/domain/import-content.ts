import { AppError } from '@readiness/kit/errors';
import { cleanFileName } from '@readiness/kit/files';
import type { AssessmentContent, Question } from './assessment';
import type { Actor, AssessmentsDeps } from './assessments';
import { acceptFile } from './files';
import type { LeftOut } from './exchange/model';
import { readContentFile } from './exchange/read-file';
import { uploadQuestionFile } from './question-files';
import { TEXT_LIMITS } from './translations';

/** How many sections and questions of each type an import makes. */
export interface ImportCounts {
  sections: number;
  yes_no: number;
  multiple_choice: number;
  file_upload: number;
}

export interface ImportPreview {
  content: AssessmentContent;
  counts: ImportCounts;
  leftOut: LeftOut[];
}

/** The settings of a first assessment, for a file that carries none and an installation that has none. */
const FIRST_SETTINGS = {
  title: 'Imported assessment',
  description: '',
  timeLimit: 30,
  passingScore: 70,
  shuffleQuestions: false,
  shuffleOptions: false,
  practiceQuestion: null,
} as const;

/**
 * A Moodle XML file or a QTI package read into the editor's content, as `PUT /api/assessment` takes it: nothing
 * of the assessment is saved. The settings the file does not carry are the current version's; the files its items
 * embed are stored as the editor's uploads are (a file type the editor refuses, or a file over its size, is left
 * out with its reason, the question kept without it).
 */
export async function importContent(
  deps: AssessmentsDeps,
  input: { data: Buffer; maxFileBytes: number; current?: AssessmentContent; actor: Actor },
): Promise<ImportPreview> {
  const imported = readContentFile(input.data);
  const leftOut = [...imported.leftOut];
  const questions: Question[] = [];
  for (const { file, ...q } of imported.questions) {
    const question: Question = { ...q, hasDownloadableFile: false };
    if (file) {
      const refused =
        file.data.length > input.maxFileBytes
          ? 'is larger than a question file may be'
          : acceptOrReason(file.name, file.data);
      if (refused) {
        leftOut.push({ item: q.id, reason: `its file ${file.name} is not kept: it ${refused}` });
      } else {
        const stored = await uploadQuestionFile(deps, cleanFileName(file.name), file.data, input.actor);
        question.hasDownloadableFile = true;
        question.downloadableFile = {
          originalName: stored.originalName,
          filename: stored.filename,
          size: stored.size,
        };
      }
    }
    questions.push(question);
  }
  const base = input.current ?? FIRST_SETTINGS;
  const content: AssessmentContent = {
    description: base.description,
    timeLimit: base.timeLimit,
    passingScore: base.passingScore,
    shuffleQuestions: base.shuffleQuestions,
    shuffleOptions: base.shuffleOptions,
    practiceQuestion: base.practiceQuestion,
    ...imported.settings,
    title: (imported.settings.title ?? base.title).slice(0, TEXT_LIMITS.title),
    sections: imported.sections,
    questions,
    translations: imported.translations,
  };
  const count = (type: Question['type']) => questions.filter((q) => q.type === type).length;
  return {
    content,
    counts: {
      sections: imported.sections.length,
      yes_no: count('yes_no'),
      multiple_choice: count('multiple_choice'),
      file_upload: count('file_upload'),
    },
    leftOut,
  };
}

function acceptOrReason(name: string, data: Buffer): string | undefined {
  try {
    acceptFile(name, data);
    return undefined;
  } catch (err) {
    if (err instanceof AppError)
      return 'is not a file type a question may have (or its content is not that type)';
    throw err;
  }
}
