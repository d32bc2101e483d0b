import { create } from '@bufbuild/protobuf';
import { timestampDate, timestampFromDate } from '@bufbuild/protobuf/wkt';
import type {
  AssessmentSection,
  AssessmentVersionPublished,
  ContentTranslation as TranslationMessage,
  QuestionTranslation as QuestionTranslationMessage,
} from './gen/readiness/events/v1/assessment_pb';
import type { ResultRecorded, ScoredAnswer, SectionScore } from './gen/readiness/events/v1/results_pb';
import { QuestionType } from './gen/readiness/events/v1/assessment_pb';
import type {
  ContentTranslations,
  Language,
  PERFORMANCE_LEVELS,
  QUESTION_KINDS,
  TIMELINE_KINDS,
  TranslatedTexts,
  TranslationLanguage,
} from './api-schemas';
import { languageOf, TRANSLATION_LANGUAGES } from './api-schemas';
import { FactorChange } from './gen/readiness/events/v1/auth_pb';
import {
  TimelineEntrySchema,
  TimelineKind,
  type TimelineEntry as TimelineMessage,
} from './gen/readiness/events/v1/timeline_pb';

/**
 * The shapes several services keep of what another publishes, translated from the events in one place: each
 * service takes from them what it stores, and no service writes its own copy of the translation.
 */

/** What changed in how an admin signs in (`auth.admin.factor-changed.v1`), as auth and the mails name it. */
export type FactorChangeKind =
  | 'passkey-added'
  | 'passkey-removed'
  | 'authenticator-added'
  | 'authenticator-removed'
  | 'recovery-codes-replaced'
  | 'factors-reset';

const FACTOR_CHANGES: Record<FactorChangeKind, FactorChange> = {
  'passkey-added': FactorChange.PASSKEY_ADDED,
  'passkey-removed': FactorChange.PASSKEY_REMOVED,
  'authenticator-added': FactorChange.AUTHENTICATOR_ADDED,
  'authenticator-removed': FactorChange.AUTHENTICATOR_REMOVED,
  'recovery-codes-replaced': FactorChange.RECOVERY_CODES_REPLACED,
  'factors-reset': FactorChange.FACTORS_RESET,
};

export const factorChange = (kind: FactorChangeKind): FactorChange => FACTOR_CHANGES[kind];
/** Nothing for a change a newer publisher added. */
export const factorChangeKind = (change: FactorChange): FactorChangeKind | undefined =>
  (Object.keys(FACTOR_CHANGES) as FactorChangeKind[]).find((k) => FACTOR_CHANGES[k] === change);

/** A question's type as the services and the API name it. */
export type QuestionKind = (typeof QUESTION_KINDS)[number];

const KINDS: Record<QuestionType, QuestionKind> = {
  // A type a newer publisher added is read as the simplest one rather than refused.
  [QuestionType.UNSPECIFIED]: 'yes_no',
  [QuestionType.YES_NO]: 'yes_no',
  [QuestionType.MULTIPLE_CHOICE]: 'multiple_choice',
  [QuestionType.FILE_UPLOAD]: 'file_upload',
};

const TYPES: Record<QuestionKind, QuestionType> = {
  yes_no: QuestionType.YES_NO,
  multiple_choice: QuestionType.MULTIPLE_CHOICE,
  file_upload: QuestionType.FILE_UPLOAD,
};

export const questionKind = (type: QuestionType): QuestionKind => KINDS[type] ?? 'yes_no';
export const questionType = (kind: QuestionKind): QuestionType => TYPES[kind];

/** A generated message's fields without protobuf's bookkeeping: the contract is the one declaration. */
type Plain<T> = Omit<T, '$typeName' | '$unknown'>;

/** A section; `draw` (how many of its questions each attempt is given) is absent when it gives them all. */
export type VersionSection = Omit<Plain<AssessmentSection>, 'draw'> & { draw?: number };

export interface VersionQuestion {
  id: string;
  type: QuestionKind;
  question: string;
  section: number;
  points: number;
  required: boolean;
  correctAnswer: string;
  options: Array<{ id: string; text: string }>;
  fileInstructions: string;
  downloadableFile?: { filename: string; originalName: string; size: number; mimetype: string };
}

/** A section's fields, the same in the contract, the services' stores and their views. */
export const sectionOf = (s: VersionSection): VersionSection => ({
  id: s.id,
  title: s.title,
  description: s.description,
  ...(s.draw ? { draw: s.draw } : {}),
});

/** The fields every question carries under the same names in the contract, the services' stores and their views. */
export type QuestionBasics = Pick<VersionQuestion, 'id' | 'question' | 'section' | 'points' | 'required'>;

export const questionBasics = (q: QuestionBasics): QuestionBasics => ({
  id: q.id,
  question: q.question,
  section: q.section,
  points: q.points,
  required: q.required,
});

/** An assessment version as `assessment.version.published.v1` carries it, in plain values. */
export interface PublishedVersion {
  versionId: string;
  version: number;
  active: boolean;
  title: string;
  description: string;
  timeLimitMinutes: number;
  passingScore: number;
  sections: VersionSection[];
  questions: VersionQuestion[];
  createdAt: Date | null;
  /** Each attempt's own order of the questions within each section (absent: off). */
  shuffleQuestions?: boolean;
  /** Each attempt's own order of multiple-choice options (absent: off). */
  shuffleOptions?: boolean;
  /** The untimed practice question the welcome page offers before Start (never scored); absent: none. */
  practiceQuestion?: PracticeQuestion;
  /** The version's texts in other languages (absent: English only). */
  translations?: ContentTranslations;
}

/** A practice question: tried before Start, answered on the page, never scored or saved. */
export interface PracticeQuestion {
  type: 'yes_no' | 'multiple_choice';
  question: string;
  options: Array<{ id: string; text: string }>;
  correctAnswer: string;
}

export function publishedVersion(e: AssessmentVersionPublished): PublishedVersion {
  return {
    versionId: e.versionId,
    version: e.version,
    active: e.active,
    title: e.title,
    description: e.description,
    timeLimitMinutes: e.timeLimitMinutes,
    passingScore: e.passingScore,
    sections: e.sections.map(sectionOf),
    questions: e.questions.map((q) => ({
      ...questionBasics(q),
      type: questionKind(q.type),
      correctAnswer: q.correctAnswer,
      options: q.options.map((o) => ({ id: o.id, text: o.text })),
      fileInstructions: q.fileInstructions,
      ...(q.downloadableFile
        ? {
            downloadableFile: {
              filename: q.downloadableFile.filename,
              originalName: q.downloadableFile.originalName,
              size: Number(q.downloadableFile.size),
              mimetype: q.downloadableFile.mimetype,
            },
          }
        : {}),
    })),
    createdAt: e.createdAt ? timestampDate(e.createdAt) : null,
    ...(e.shuffleQuestions ? { shuffleQuestions: true } : {}),
    ...(e.shuffleOptions ? { shuffleOptions: true } : {}),
    ...(e.practiceQuestion && e.practiceQuestion.question
      ? {
          practiceQuestion: {
            type: questionKind(e.practiceQuestion.type) === 'multiple_choice' ? 'multiple_choice' : 'yes_no',
            question: e.practiceQuestion.question,
            options: e.practiceQuestion.options.map((o) => ({ id: o.id, text: o.text })),
            correctAnswer: e.practiceQuestion.correctAnswer,
          },
        }
      : {}),
    ...(e.translations.length ? { translations: contentTranslations(e.translations) } : {}),
  };
}

/** Only the texts a translation gives: proto3 sends an untranslated text as empty, and empty is "not translated". */
const givenTexts = <K extends string>(texts: Record<K, string>): Partial<Record<K, string>> =>
  Object.fromEntries(Object.entries(texts).filter(([, text]) => text)) as Partial<Record<K, string>>;

const byId = <T>(entries: Array<[string, T]>): Record<string, T> | undefined =>
  entries.length ? Object.fromEntries(entries) : undefined;

function questionTranslation(q: QuestionTranslationMessage) {
  const file = q.downloadableFile;
  return {
    ...givenTexts({ question: q.question, fileInstructions: q.fileInstructions }),
    ...(q.options.length ? { options: byId(q.options.map((o) => [o.id, o.text])) } : {}),
    ...(file?.filename
      ? {
          downloadableFile: {
            filename: file.filename,
            originalName: file.originalName,
            size: Number(file.size),
            mimetype: file.mimetype,
          },
        }
      : {}),
  };
}

/** The translations an event carries, by language; a language other than es, fr, pt and ar is left out. */
export function contentTranslations(messages: TranslationMessage[]): ContentTranslations {
  const out: ContentTranslations = {};
  for (const m of messages) {
    if (!(TRANSLATION_LANGUAGES as readonly string[]).includes(m.language)) continue;
    const practice = m.practiceQuestion && questionTranslation(m.practiceQuestion);
    const sections = byId(
      m.sections.map((s) => [String(s.id), givenTexts({ title: s.title, description: s.description })]),
    );
    const questions = byId(m.questions.map((q) => [q.id, questionTranslation(q)]));
    out[m.language as TranslationLanguage] = {
      ...givenTexts({ title: m.title, description: m.description }),
      ...(sections ? { sections } : {}),
      ...(questions ? { questions } : {}),
      ...(practice && (practice.question || practice.options) ? { practiceQuestion: practice } : {}),
    };
  }
  return out;
}

/**
 * Stored translations as an event carries them, one message per language; `mimetypeOf` names a translated file's
 * type when the stored file does not say it.
 */
export function translationMessages(
  translations: ContentTranslations,
  mimetypeOf: (filename: string) => string = () => '',
) {
  const question = (
    id: string,
    q: NonNullable<TranslatedTexts['practiceQuestion']> &
      Pick<NonNullable<TranslatedTexts['questions']>[string], 'fileInstructions' | 'downloadableFile'>,
  ) => ({
    id,
    question: q.question ?? '',
    options: Object.entries(q.options ?? {}).map(([optionId, text]) => ({ id: optionId, text })),
    fileInstructions: q.fileInstructions ?? '',
    downloadableFile: q.downloadableFile && {
      filename: q.downloadableFile.filename,
      originalName: q.downloadableFile.originalName,
      size: BigInt(q.downloadableFile.size),
      mimetype: q.downloadableFile.mimetype || mimetypeOf(q.downloadableFile.filename),
    },
  });
  return TRANSLATION_LANGUAGES.flatMap((language) => {
    const t = translations[language];
    if (!t) return [];
    return [
      {
        language,
        title: t.title ?? '',
        description: t.description ?? '',
        sections: Object.entries(t.sections ?? {}).map(([id, s]) => ({
          id: Number(id),
          title: s.title ?? '',
          description: s.description ?? '',
        })),
        questions: Object.entries(t.questions ?? {}).map(([id, q]) => question(id, q)),
        practiceQuestion: t.practiceQuestion && question('practice', t.practiceQuestion),
      },
    ];
  });
}

/** The performance bands of SPEC §4, by percentage: 90 and above, 80 to 89, 70 to 79, below 70. */
export type PerformanceLevel = (typeof PERFORMANCE_LEVELS)[number];

export function performanceLevel(percentage: number): PerformanceLevel {
  if (percentage >= 90) return 'Excellent';
  if (percentage >= 80) return 'Good';
  if (percentage >= 70) return 'Satisfactory';
  return 'Needs Improvement';
}

/**
 * The percentage of `part` over `whole` as every surface shows it (docs/scoring.md): to one decimal, halves up,
 * except that it never reaches a whole number the exact value falls short of. 69.95 shows as 69.9, not 70, so a
 * fail never reads as the pass mark and a score never reads as the bound of a band it is below (pass marks and
 * bands are whole numbers). A whole value is a whole number (70, not 70.0); 0 when there is nothing to score.
 * Computed in integers: `part` and `whole` are points (or counts).
 */
export function shownPercentage(part: number, whole: number): number {
  if (whole <= 0) return 0;
  const tenthsTimesWhole = part * 1000;
  const down = Math.floor(tenthsTimesWhole / whole);
  const nearest = Math.floor((2 * tenthsTimesWhole + whole) / (2 * whole));
  const reachesAWholeNumberItIsBelow = nearest % 10 === 0 && nearest * whole > tenthsTimesWhole;
  return (reachesAWholeNumberItIsBelow ? down : nearest) / 10;
}

/** The fewest points of `totalPoints` that pass against `passingScore` percent: score × 100 ≥ passingScore × total. */
export const pointsToPass = (passingScore: number, totalPoints: number) =>
  Math.ceil((passingScore * totalPoints) / 100);

/** One section's figures within a result. */
export type ResultSection = Plain<SectionScore>;

/** A section's figures, named alike in the contract, the services and their answers. */
export const sectionFigures = (s: Omit<ResultSection, 'sectionId'>): Omit<ResultSection, 'sectionId'> => ({
  title: s.title,
  score: s.score,
  totalPoints: s.totalPoints,
  correct: s.correct,
  questions: s.questions,
  percentage: s.percentage,
});

/**
 * One question's outcome within a result; `skipped` (an optional question left unanswered) only when true,
 * `paperPosition` (its place on the attempt's own paper) only when the attempt had one.
 */
export type ResultAnswer = Omit<Plain<ScoredAnswer>, 'skipped' | 'paperPosition'> & {
  skipped?: boolean;
  paperPosition?: number;
};

/** A result as `results.result.recorded.v1` carries it, in plain values. */
export type RecordedResult = Omit<
  Plain<ResultRecorded>,
  'completedAt' | 'sections' | 'answers' | 'timeline' | 'language' | 'ltiLaunchId'
> & {
  /** The attempt's language (English when a publisher left it out). */
  language: Language;
  /** What happened during the attempt (empty for results recorded before timelines). */
  timeline: TimelineFact[];
  /** The submission's time; the moment it was read when a publisher left it out. */
  completedAt: Date;
  sections: ResultSection[];
  answers: ResultAnswer[];
};

export function recordedResult(e: ResultRecorded): RecordedResult {
  return {
    resultId: e.resultId,
    attemptId: e.attemptId,
    studentId: e.studentId,
    name: e.name,
    email: e.email,
    score: e.score,
    totalPoints: e.totalPoints,
    percentage: e.percentage,
    passed: e.passed,
    attemptNumber: e.attemptNumber,
    canRetake: e.canRetake,
    assessmentCode: e.assessmentCode,
    completedAt: e.completedAt ? timestampDate(e.completedAt) : new Date(),
    versionId: e.versionId,
    version: e.version,
    passingScore: e.passingScore,
    assessmentTitle: e.assessmentTitle,
    // The title in the result's language; an older publisher sends none: the English title.
    localizedTitle: e.localizedTitle || e.assessmentTitle,
    sections: e.sections.map((s) => ({ sectionId: s.sectionId, ...sectionFigures(s) })),
    timeline: timelineFacts(e.timeline),
    language: languageOf(e.language),
    answers: e.answers.map((a) => ({
      questionId: a.questionId,
      answer: a.answer,
      isCorrect: a.isCorrect,
      points: a.points,
      maxPoints: a.maxPoints,
      sectionId: a.sectionId,
      ...(a.skipped ? { skipped: true } : {}),
      ...(a.paperPosition > 0 ? { paperPosition: a.paperPosition } : {}),
    })),
  };
}

/** What an attempt's timeline records, as the services store it and the API names it. */
export type TimelineKindName = (typeof TIMELINE_KINDS)[number];

/** One fact of an attempt's timeline, as stored (JSON) and served; times are ISO strings. */
export interface TimelineFact {
  at: string;
  kind: TimelineKindName;
  until?: string;
  count?: number;
  seconds?: number;
  minutes?: number;
  sectionId?: number;
  questionId?: string;
  actorId?: string;
}

const TIMELINE_KIND_NAMES: Record<TimelineKind, TimelineKindName | undefined> = {
  [TimelineKind.UNSPECIFIED]: undefined,
  [TimelineKind.STARTED]: 'started',
  [TimelineKind.SECTION_REACHED]: 'section_reached',
  [TimelineKind.SAVED]: 'saved',
  [TimelineKind.OFFLINE]: 'offline',
  [TimelineKind.PAGE_HIDDEN]: 'page_hidden',
  [TimelineKind.PASTED]: 'pasted',
  [TimelineKind.SECOND_DEVICE]: 'second_device',
  [TimelineKind.EXTENDED]: 'extended',
  [TimelineKind.SUBMITTED]: 'submitted',
  [TimelineKind.ENDED]: 'ended',
  [TimelineKind.TIMED_OUT]: 'timed_out',
};

const TIMELINE_KIND_VALUES = Object.fromEntries(
  Object.entries(TIMELINE_KIND_NAMES).map(([value, name]) => [name, Number(value)]),
) as Record<TimelineKindName, TimelineKind>;

/** The timeline an event carries, as stored and served; a kind a newer publisher added is left out. */
export function timelineFacts(entries: TimelineMessage[]): TimelineFact[] {
  const facts: TimelineFact[] = [];
  for (const e of entries) {
    const kind = TIMELINE_KIND_NAMES[e.kind];
    if (!kind || !e.at) continue;
    facts.push({
      at: timestampDate(e.at).toISOString(),
      kind,
      ...(e.until ? { until: timestampDate(e.until).toISOString() } : {}),
      ...(e.count ? { count: e.count } : {}),
      // A period's length is kept even when it is 0 (proto3 sends no zeros): the sentence names its length.
      ...(e.seconds || kind === 'offline' || kind === 'page_hidden' ? { seconds: e.seconds } : {}),
      ...(e.minutes ? { minutes: e.minutes } : {}),
      ...(e.sectionId ? { sectionId: e.sectionId } : {}),
      ...(e.questionId ? { questionId: e.questionId } : {}),
      ...(e.actorId ? { actorId: e.actorId } : {}),
    });
  }
  return facts;
}

/** A stored timeline as an event carries it. */
export const timelineMessages = (facts: TimelineFact[]) =>
  facts.map((f) =>
    create(TimelineEntrySchema, {
      at: timestampFromDate(new Date(f.at)),
      kind: TIMELINE_KIND_VALUES[f.kind],
      until: f.until ? timestampFromDate(new Date(f.until)) : undefined,
      count: f.count ?? 0,
      seconds: f.seconds ?? 0,
      minutes: f.minutes ?? 0,
      sectionId: f.sectionId ?? 0,
      questionId: f.questionId ?? '',
      actorId: f.actorId ?? '',
    }),
  );
