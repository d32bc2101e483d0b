import type { ApiAnswer, ApiBody, ApiQuery } from '../../../lib/api-types';
import { adminT } from '../../../i18n/admin/admin-i18n';
import { LANGUAGE_NAMES } from '../../../i18n/languages';

/*
 * SPEC §3: the Assessment and Question entities as the assessment service answers them (the generated
 * `api-schema.ts`): a field the service adds, renames or drops changes these types.
 */

/** One version, whole: `GET /api/assessment` (the active one), `/versions/{version}`, a save and an activation. */
export type AssessmentAnswer = ApiAnswer<'/api/assessment', 'get'>;
export type Assessment = AssessmentAnswer['assessment'];
export type Section = Assessment['sections'][number];
export type Question = Assessment['questions'][number];
export type QuestionType = Question['type'];
export type QuestionOption = NonNullable<Question['options']>[number];
export type DownloadableFile = NonNullable<Question['downloadableFile']>;
/** The untimed question a version may offer on the welcome page before Start: never scored, never saved. */
export type PracticeQuestion = NonNullable<Assessment['practiceQuestion']>;
export type PracticeType = PracticeQuestion['type'];

/** What an admin authors, the content of one version: what the view shows and the editor starts from. */
export type AssessmentContent = Pick<
  Assessment,
  | 'title'
  | 'description'
  | 'timeLimit'
  | 'passingScore'
  | 'sections'
  | 'questions'
  | 'shuffleQuestions'
  | 'shuffleOptions'
  | 'practiceQuestion'
  | 'translations'
  | 'outdatedTranslations'
>;

/**
 * The version's texts in other languages: English is the version's own text, and a text a translation
 * leaves out is shown to students in English.
 */
export type ContentTranslations = Assessment['translations'];
export type TranslationLanguage = keyof ContentTranslations;
export type TranslatedTexts = NonNullable<ContentTranslations[TranslationLanguage]>;
/** A language the editor shows the content in: English (the version's own text) or a translation. */
export type ContentLanguage = 'en' | TranslationLanguage;

/*
 * The languages in the order the switcher offers them: each by its own name (the same in every language, as the
 * student pages show it), and by the name the admin app's language gives it (the catalogue's, read once: the admin
 * app's language is fixed when it loads).
 */
export const CONTENT_LANGUAGES: { value: ContentLanguage; label: string; name: string }[] = [
  { value: 'en', label: LANGUAGE_NAMES.en, name: adminT('assessments.language.en') },
  { value: 'es', label: LANGUAGE_NAMES.es, name: adminT('assessments.language.es') },
  { value: 'fr', label: LANGUAGE_NAMES.fr, name: adminT('assessments.language.fr') },
  { value: 'pt', label: LANGUAGE_NAMES.pt, name: adminT('assessments.language.pt') },
  { value: 'ar', label: LANGUAGE_NAMES.ar, name: adminT('assessments.language.ar') },
];

export const TRANSLATION_LANGUAGES: TranslationLanguage[] = ['es', 'fr', 'pt', 'ar'];

/** A language's name in the admin app's language, as the admin screens name it. */
export const languageName = (language: ContentLanguage) =>
  CONTENT_LANGUAGES.find((l) => l.value === language)?.name ?? language;

/** `GET /api/assessment/versions`: every version, newest first. */
export type VersionList = ApiAnswer<'/api/assessment/versions', 'get'>;
export type AssessmentVersionSummary = VersionList['versions'][number];

/** `PUT /api/assessment`: the content saved as a new version, with the version it was based on. */
export type SaveBody = ApiBody<'/api/assessment', 'put'>;
export type SaveAnswer = ApiAnswer<'/api/assessment', 'put'>;
export type VersionAnswer = ApiAnswer<'/api/assessment/versions/{version}', 'get'>;
/** `POST /api/assessment/upload-file`: the stored file. */
export type UploadAnswer = ApiAnswer<'/api/assessment/upload-file', 'post', 201>;

/** `POST /api/assessment/import`: a file read into content (nothing saved), its figures, and what it left out. */
export type ImportPreview = ApiAnswer<'/api/assessment/import', 'post'>;
export type ImportedContent = ImportPreview['content'];
/** How an import meets the content being edited: instead of it, or as new sections after it. */
export type ImportMode = 'replace' | 'append';
/** The formats a version is exported in (`GET /api/assessment/versions/{version}/export`). */
export type ExportFormat = NonNullable<
  ApiQuery<'/api/assessment/versions/{version}/export', 'get'>
>['format'];

/* The labels below are the catalogue's, read once: the admin app's language is fixed when it loads. */
export const QUESTION_TYPES: { value: QuestionType; label: string }[] = [
  { value: 'yes_no', label: adminT('assessments.questionType.yesNo') },
  { value: 'multiple_choice', label: adminT('assessments.questionType.multipleChoice') },
  { value: 'file_upload', label: adminT('assessments.questionType.fileUpload') },
];

/** A practice question is answered by a choice, so it is one of the choice types, labelled as questions are. */
export const PRACTICE_TYPES = QUESTION_TYPES.filter(
  (type): type is { value: PracticeType; label: string } => type.value !== 'file_upload',
);

/** The answers of a yes/no question. */
export const YES_NO: { value: string; label: string }[] = [
  { value: 'yes', label: adminT('assessments.answer.yes') },
  { value: 'no', label: adminT('assessments.answer.no') },
];

export const typeLabel = (type: QuestionType) => QUESTION_TYPES.find((t) => t.value === type)?.label ?? type;

/**
 * How many of a section's `count` questions each student is given: its draw when that is below the count,
 * else all of them (a draw that is absent, 0 or the whole count is no draw).
 */
export const questionsGiven = (draw: number | undefined, count: number) =>
  draw && draw > 0 && draw < count ? draw : count;
