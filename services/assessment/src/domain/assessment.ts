import { badRequest } from '@readiness/kit/errors';
import { QUESTION_KINDS, questionBasics, type ContentTranslations } from '@readiness/contracts';
import type { VersionContent, VersionRecord } from '../data-access/versions-repository';
import type { TranslationSources } from './translation-review';
import { checkTranslations, normalizeTranslations, translatedFileNames } from './translations';

export const QUESTION_TYPES = QUESTION_KINDS;
export type QuestionType = (typeof QUESTION_TYPES)[number];

export interface Section {
  id: number;
  title: string;
  description: string;
  /** How many of the section's questions each attempt is given, drawn when it starts; absent or 0: all. */
  draw?: number;
}

export interface QuestionFile {
  originalName: string;
  filename: string;
  size: number;
}

export interface Question {
  id: string;
  type: QuestionType;
  question: string;
  section: number;
  points: number;
  required: boolean;
  correctAnswer?: string;
  options?: { id: string; text: string }[];
  fileInstructions?: string;
  hasDownloadableFile?: boolean;
  downloadableFile?: QuestionFile;
}

/** What an admin authors: the content of one version. */
export interface AssessmentContent {
  title: string;
  description: string;
  timeLimit: number;
  passingScore: number;
  sections: Section[];
  questions: Question[];
  /** Each attempt gets its own order of the questions within each section. */
  shuffleQuestions: boolean;
  /** Each attempt gets its own order of every multiple-choice question's options. */
  shuffleOptions: boolean;
  /** One untimed question the welcome page offers before Start: never scored, never saved; null when none. */
  practiceQuestion: PracticeQuestion | null;
  /** The texts in other languages than English (the version's own text); a text left out is shown in English. */
  translations: ContentTranslations;
}

export interface PracticeQuestion {
  type: 'yes_no' | 'multiple_choice';
  question: string;
  options: { id: string; text: string }[];
  correctAnswer: string;
}

/** One saved version, with what its translations were written against. */
export interface AssessmentVersion
  extends AssessmentContent, Omit<VersionRecord, keyof VersionContent | 'translationSources'> {
  translationSources: TranslationSources;
}

function firstRepeat<T>(values: T[]): T | undefined {
  const seen = new Set<T>();
  for (const v of values) {
    if (seen.has(v)) return v;
    seen.add(v);
  }
  return undefined;
}

/**
 * The rules a version must keep beyond the shape of each field (which the request schema checks): unique ids,
 * every question in an existing section, answer keys that fit the question type, files that were uploaded,
 * translations of texts the version has.
 * The first broken rule is a 400 with its message.
 */
export function checkContent(content: AssessmentContent, isUploaded: (filename: string) => boolean): void {
  // A version without questions has nothing to score: no total points, and no pass rule that means anything.
  if (content.questions.length === 0) throw badRequest('An assessment needs at least one question');
  const sectionIds = content.sections.map((s) => s.id);
  const repeatedSection = firstRepeat(sectionIds);
  if (repeatedSection !== undefined) {
    throw badRequest(`Section ids must be unique: section ${repeatedSection} appears twice`);
  }
  const repeatedQuestion = firstRepeat(content.questions.map((q) => q.id));
  if (repeatedQuestion !== undefined) {
    throw badRequest(`Question ids must be unique: ${repeatedQuestion} appears twice`);
  }
  const practice = content.practiceQuestion;
  if (practice) {
    if (practice.type === 'yes_no' && practice.correctAnswer !== 'yes' && practice.correctAnswer !== 'no') {
      throw badRequest('Practice question: the correct answer must be yes or no');
    }
    if (practice.type === 'multiple_choice') {
      if (practice.options.length < 2) {
        throw badRequest('Practice question: a multiple choice question needs at least 2 options');
      }
      const repeated = firstRepeat(practice.options.map((o) => o.id));
      if (repeated !== undefined) {
        throw badRequest(`Practice question: option ids must be unique (${repeated} appears twice)`);
      }
      if (!practice.options.some((o) => o.id === practice.correctAnswer)) {
        throw badRequest('Practice question: the correct answer must be one of its options');
      }
    }
  }
  for (const s of content.sections) {
    const count = content.questions.filter((q) => q.section === s.id).length;
    if (s.draw && s.draw > count) {
      throw badRequest(
        `Section ${s.id}: each student can be given at most its ${count} ${count === 1 ? 'question' : 'questions'}, not ${s.draw}`,
      );
    }
  }
  for (const q of content.questions) {
    if (!sectionIds.includes(q.section)) {
      throw badRequest(`Question ${q.id} is in section ${q.section}, which does not exist`);
    }
    if (q.type === 'yes_no' && q.correctAnswer !== 'yes' && q.correctAnswer !== 'no') {
      throw badRequest(`Question ${q.id}: the correct answer must be yes or no`);
    }
    if (q.type === 'multiple_choice') {
      const options = q.options ?? [];
      if (options.length < 2) {
        throw badRequest(`Question ${q.id}: a multiple choice question needs at least 2 options`);
      }
      const repeatedOption = firstRepeat(options.map((o) => o.id));
      if (repeatedOption !== undefined) {
        throw badRequest(`Question ${q.id}: option ids must be unique (${repeatedOption} appears twice)`);
      }
      if (!options.some((o) => o.id === q.correctAnswer)) {
        throw badRequest(`Question ${q.id}: the correct answer must be one of its options`);
      }
    }
    if (q.hasDownloadableFile && q.downloadableFile && !isUploaded(q.downloadableFile.filename)) {
      throw badRequest(`Question ${q.id}: the downloadable file must be a file uploaded first`);
    }
  }
  checkTranslations(content, isUploaded);
}

/** The content as stored and published: type-specific fields only where they belong, no stale file. */
export function normalizeContent(content: AssessmentContent): AssessmentContent {
  return {
    ...content,
    practiceQuestion: content.practiceQuestion && {
      ...content.practiceQuestion,
      options: content.practiceQuestion.type === 'multiple_choice' ? content.practiceQuestion.options : [],
    },
    // A draw of every question (or none) is no draw: stored as absent, so the version behaves as one without (a
    // draw beyond the section stays, for the check to refuse).
    sections: content.sections.map(({ draw, ...s }) => {
      const count = content.questions.filter((q) => q.section === s.id).length;
      return draw && draw !== count ? { ...s, draw } : s;
    }),
    questions: content.questions.map((q) => {
      const out: Question = { ...questionBasics(q), type: q.type };
      if (q.type !== 'file_upload' && q.correctAnswer !== undefined) out.correctAnswer = q.correctAnswer;
      if (q.type === 'multiple_choice') out.options = q.options ?? [];
      if (q.fileInstructions) out.fileInstructions = q.fileInstructions;
      const file = q.hasDownloadableFile ? q.downloadableFile : undefined;
      out.hasDownloadableFile = Boolean(file);
      if (file) out.downloadableFile = file;
      return out;
    }),
    translations: normalizeTranslations(content.translations),
  };
}

/** Filenames of the question files a version refers to, its translations' included. */
export function fileNames(content: Pick<AssessmentContent, 'questions' | 'translations'>): string[] {
  return [
    ...content.questions.flatMap((q) => (q.downloadableFile ? [q.downloadableFile.filename] : [])),
    ...translatedFileNames(content.translations),
  ];
}
