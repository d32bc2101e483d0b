import { badRequest } from '@readiness/kit/errors';
import {
  questionBasics,
  sectionOf,
  TRANSLATION_LANGUAGES,
  type ContentTranslations,
  type TranslatedTexts,
} from '@readiness/contracts';
import type { VersionSection } from '@readiness/contracts';
import type { Answer, AssessmentVersion, VersionQuestion } from '../data-access/version-records';

export type {
  Answer,
  AssessmentVersion,
  QuestionType,
  VersionQuestion,
} from '../data-access/version-records';

/** A section as the welcome page states it: with how many of its questions each student answers. */
export interface StudentSection extends VersionSection {
  questionCount: number;
}

/**
 * The assessment as a student sees it: the version without its answer key (api.md StudentAssessment). A page is
 * never sent it whole: `pageView` keeps only the questions the student may see (none before Start).
 */
export interface StudentAssessment extends Omit<
  AssessmentVersion,
  'sections' | 'questions' | 'practiceQuestion' | 'shuffleQuestions' | 'shuffleOptions' | 'translations'
> {
  sections: StudentSection[];
  /** Every language's texts at once, so the page switches language without another call; {} when none. */
  translations: ContentTranslations;
  /** Tried on the page before Start, its answer with it: never scored, so nothing is given away. */
  practiceQuestion: NonNullable<AssessmentVersion['practiceQuestion']> | null;
  questions: Array<
    Omit<VersionQuestion, 'correctAnswer' | 'downloadableFile'> & {
      hasDownloadableFile: boolean;
      downloadableFile?: NonNullable<VersionQuestion['downloadableFile']> & { url: string };
    }
  >;
}

/**
 * Built field by field from an allow-list, never by removing fields from the version: a field added to the
 * version later cannot leak the answer key by default.
 */
export function studentView(v: AssessmentVersion): StudentAssessment {
  return {
    versionId: v.versionId,
    version: v.version,
    title: v.title,
    description: v.description,
    timeLimit: v.timeLimit,
    passingScore: v.passingScore,
    sections: v.sections.map((s) => {
      const all = v.questions.filter((q) => q.section === s.id).length;
      return { ...sectionOf(s), questionCount: s.draw && s.draw < all ? s.draw : all };
    }),
    questions: v.questions.map((q) => ({
      ...questionBasics(q),
      type: q.type,
      options: q.type === 'multiple_choice' ? q.options.map((o) => ({ id: o.id, text: o.text })) : [],
      fileInstructions: q.fileInstructions,
      hasDownloadableFile: Boolean(q.downloadableFile),
      ...(q.downloadableFile
        ? {
            downloadableFile: {
              originalName: q.downloadableFile.originalName,
              filename: q.downloadableFile.filename,
              size: q.downloadableFile.size,
              mimetype: q.downloadableFile.mimetype,
              url: fileUrl(q.downloadableFile.filename),
            },
          }
        : {}),
    })),
    practiceQuestion: v.practiceQuestion
      ? {
          type: v.practiceQuestion.type,
          question: v.practiceQuestion.question,
          options: v.practiceQuestion.options.map((o) => ({ id: o.id, text: o.text })),
          correctAnswer: v.practiceQuestion.correctAnswer,
        }
      : null,
    translations: studentTranslations(v.translations ?? {}),
  };
}

/** The views with no question at all, by the view they narrow (versions never change). */
const welcomeViews = new WeakMap<StudentAssessment, StudentAssessment>();

/**
 * What a page may see of a view (question banks): only the questions `given` names (`null`: every
 * question, an attempt without a paper), with their texts and files in every language the version has; before
 * Start `given` is empty and no scored question is sent at all. Sections, counts, the time limit, the practice
 * question and the titles stay whole.
 */
export function pageView(view: StudentAssessment, given: readonly string[] | null): StudentAssessment {
  if (!given) return view;
  if (given.length === 0) {
    const kept = welcomeViews.get(view);
    if (kept) return kept;
    const welcome = narrowed(view, new Set());
    welcomeViews.set(view, welcome);
    return welcome;
  }
  return narrowed(view, new Set(given));
}

function narrowed(view: StudentAssessment, given: ReadonlySet<string>): StudentAssessment {
  const translations: ContentTranslations = {};
  for (const language of TRANSLATION_LANGUAGES) {
    const t = view.translations[language];
    if (!t) continue;
    const { questions: all, ...rest } = t;
    const questions = Object.entries(all ?? {}).filter(([id]) => given.has(id));
    translations[language] =
      questions.length > 0 ? { ...rest, questions: Object.fromEntries(questions) } : rest;
  }
  return { ...view, questions: view.questions.filter((q) => given.has(q.id)), translations };
}

type QuestionTexts = NonNullable<TranslatedTexts['questions']>[string];

/** Option texts by option id: strings only. */
const textsOf = (record: Record<string, string> | undefined) => record && { ...record };

/** Where a question file downloads from: the assessment service serves every file a version refers to. */
const fileUrl = (filename: string) => `/api/assessment/files/${encodeURIComponent(filename)}`;

/** A translated downloadable file as the page offers it, with its url (as the English file is). */
const translatedFile = (file: QuestionTexts['downloadableFile']) =>
  file && {
    originalName: file.originalName,
    filename: file.filename,
    size: file.size,
    mimetype: file.mimetype ?? '',
    url: fileUrl(file.filename),
  };

const questionTexts = (q: QuestionTexts): QuestionTexts => ({
  question: q.question,
  options: textsOf(q.options),
  fileInstructions: q.fileInstructions,
  downloadableFile: translatedFile(q.downloadableFile),
});

/** The translations, copied text by text as the rest of the view is (they hold no answer key). */
function studentTranslations(translations: ContentTranslations): ContentTranslations {
  const out: ContentTranslations = {};
  for (const language of TRANSLATION_LANGUAGES) {
    const t = translations[language];
    if (!t) continue;
    out[language] = {
      title: t.title,
      description: t.description,
      sections:
        t.sections &&
        Object.fromEntries(
          Object.entries(t.sections).map(([id, s]) => [id, { title: s.title, description: s.description }]),
        ),
      questions:
        t.questions &&
        Object.fromEntries(Object.entries(t.questions).map(([id, q]) => [id, questionTexts(q)])),
      practiceQuestion: t.practiceQuestion && {
        question: t.practiceQuestion.question,
        options: textsOf(t.practiceQuestion.options),
      },
    };
  }
  return out;
}

/** What a file_upload question's answer is recorded as (SPEC §7). */
export const FILE_UPLOADED = 'file_uploaded';

/**
 * Checks answers against the version the attempt is pinned to: every question id is one of its questions (once)
 * and, given the attempt's paper, one of the questions it was given; a yes/no answer is yes or no, a
 * multiple-choice answer one of the question's option ids. An empty answer means unanswered and is dropped. A
 * file_upload answer only says a file was chosen; the file itself is what counts.
 */
export function checkAnswers(
  version: AssessmentVersion,
  answers: Answer[],
  paper?: { questionIds: string[] } | null,
): Answer[] {
  const questions = new Map(version.questions.map((q) => [q.id, q]));
  const given = paper ? new Set(paper.questionIds) : undefined;
  const seen = new Set<string>();
  const kept: Answer[] = [];
  for (const a of answers) {
    const q = questions.get(a.questionId);
    if (!q) throw badRequest(`Unknown question: ${a.questionId.slice(0, 100)}`, 'unknown_question');
    if (given && !given.has(q.id)) {
      throw badRequest(
        `Question ${q.id} is not one of the questions this attempt was given`,
        'question_not_given',
      );
    }
    if (seen.has(a.questionId)) {
      throw badRequest(`Question ${q.id} is answered twice`, 'duplicate_answer');
    }
    seen.add(a.questionId);
    if (a.answer === '') continue;
    const valid =
      q.type === 'yes_no'
        ? a.answer === 'yes' || a.answer === 'no'
        : q.type === 'multiple_choice'
          ? q.options.some((o) => o.id === a.answer)
          : true;
    if (!valid)
      throw badRequest(`The answer to question ${q.id} is not one of its choices`, 'invalid_answer');
    kept.push({ questionId: q.id, answer: q.type === 'file_upload' ? FILE_UPLOADED : a.answer });
  }
  return kept;
}

/**
 * A submit's answers over what the attempt's last autosave holds: a question the submit names takes its answer
 * (an empty one leaves it unanswered), every other keeps its saved answer. A submit that carries fewer answers
 * than were saved (none at all, a page that lost its state) never discards what was saved.
 */
export function overSaved(version: AssessmentVersion, saved: Answer[], sent: Answer[]): Answer[] {
  const checked = checkAnswers(version, sent);
  const named = new Set(sent.map((a) => a.questionId));
  return [...saved.filter((a) => !named.has(a.questionId)), ...checked];
}

/** A small map that forgets its oldest entry past `max` (versions are few; this only bounds a misuse). */
export function boundedCache<V>(max: number) {
  const map = new Map<string, V>();
  return {
    get: (key: string) => map.get(key),
    delete: (key: string) => map.delete(key),
    keys: () => [...map.keys()],
    set(key: string, value: V) {
      map.delete(key);
      map.set(key, value);
      if (map.size > max) map.delete(map.keys().next().value as string);
    },
  };
}
