import { z } from 'zod';

/**
 * The shared shapes as the services' HTTP operations declare them (zod, and from it OpenAPI and the web's types):
 * declared here once, next to the translations of the same shapes from the events.
 */

export const QUESTION_KINDS = ['yes_no', 'multiple_choice', 'file_upload'] as const;

/**
 * The languages a student can read Readiness in, English first: the pages, the mails and the
 * certificate. Arabic is written right to left.
 */
export const LANGUAGES = ['en', 'es', 'fr', 'pt', 'ar'] as const;
export type Language = (typeof LANGUAGES)[number];
const LANGUAGE_MESSAGE = 'Language must be one of en, es, fr, pt, ar';
export const languageSchema = z.enum(LANGUAGES, { error: LANGUAGE_MESSAGE });
/** A language an event carries: one of LANGUAGES, anything else (empty, from an older publisher) English. */
export const languageOf = (value: string | null | undefined): Language =>
  (LANGUAGES as readonly string[]).includes(value ?? '') ? (value as Language) : 'en';

/** The performance bands of SPEC §4, best first. */
export const PERFORMANCE_LEVELS = ['Excellent', 'Good', 'Satisfactory', 'Needs Improvement'] as const;

export const questionKindSchema = z.enum(QUESTION_KINDS);

export const performanceLevelSchema = z.enum(PERFORMANCE_LEVELS);

export const sectionSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  draw: z
    .number()
    .int()
    .optional()
    .describe("How many of the section's questions each student is given (absent: all)"),
});

/** A percentage as the screens, mails, PDFs and CSV show it: `shownPercentage` (docs/scoring.md). */
export const shownPercentageSchema = z
  .number()
  .min(0)
  .max(100)
  .describe(
    'Percent of the points, to one decimal (a whole number when it is one); never rounded up to a whole number the score does not reach, so a fail never reads as the pass mark (69.95 is 69.9)',
  );

/** One section's figures within a result, as the student's result page and the admin's result detail show them. */
export const sectionFiguresSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  score: z.number().int(),
  totalPoints: z.number().int(),
  correct: z.number().int(),
  questions: z.number().int(),
  percentage: shownPercentageSchema,
});

/** The untimed practice question a version may offer before Start, with its answer: never scored, never saved. */
export const practiceQuestionSchema = z.object({
  type: z.enum(['yes_no', 'multiple_choice']),
  question: z.string(),
  options: z.array(z.object({ id: z.string(), text: z.string() })),
  correctAnswer: z.string(),
});

/**
 * The languages a version's content may be translated into: every language but English, which is the
 * version's own text.
 */
export const TRANSLATION_LANGUAGES = ['es', 'fr', 'pt', 'ar'] as const satisfies readonly Language[];
export type TranslationLanguage = (typeof TRANSLATION_LANGUAGES)[number];

/**
 * A question's downloadable file in one language: uploaded as the English one is (`POST /api/assessment/files`),
 * named by its stored `filename`. The student's page also gets its `url` and `mimetype`.
 */
const translatedFileSchema = z.object({
  originalName: z.string(),
  filename: z.string(),
  size: z.number().int(),
  mimetype: z.string().optional().describe("The student's page only"),
  url: z.string().optional().describe("The student's page only: where the file downloads from"),
});
export type TranslatedFile = z.infer<typeof translatedFileSchema>;

/**
 * A version's texts in the other languages, declared once for the admin's save, the admin's read and the student's
 * page: `{ es?: { title?, description?, sections?: { [sectionId]: { title?, description? } }, questions?:
 * { [questionId]: { question?, options?: { [optionId]: text }, fileInstructions?, downloadableFile? } },
 * practiceQuestion?: { question?, options? } }, fr?, pt?, ar? }`. A text left out is not translated: the student
 * sees the English one; a question offering a downloadable file may offer its own file per language
 * (`downloadableFile`), else the English file. `text` and `longText` are the schemas of one short (a title, an
 * option) and one long text (a description, a question), `file` that of a file; a request gives them its own
 * checks, an answer plain ones.
 */
export function contentTranslationsSchema(
  text: z.ZodType<string> = z.string(),
  longText: z.ZodType<string> = text,
  file: z.ZodType<TranslatedFile> = translatedFileSchema,
) {
  const question = z.object({
    question: longText.optional(),
    options: z.record(z.string(), text).optional().describe('By option id'),
    fileInstructions: longText.optional().describe("A file-upload question's instructions"),
    downloadableFile: file
      .optional()
      .describe("The question's downloadable file in this language (a question that offers one)"),
  });
  const language = z.object({
    title: text.optional(),
    description: longText.optional(),
    sections: z
      .record(z.string(), z.object({ title: text.optional(), description: longText.optional() }))
      .optional()
      .describe('By section id'),
    questions: z.record(z.string(), question).optional().describe('By question id'),
    practiceQuestion: question.omit({ fileInstructions: true, downloadableFile: true }).optional(),
  });
  return z
    .strictObject(
      { es: language.optional(), fr: language.optional(), pt: language.optional(), ar: language.optional() },
      {
        error: (issue) =>
          issue.code === 'unrecognized_keys'
            ? `Unknown translation language: ${issue.keys.join(', ')} (translations are for es, fr, pt and ar; English is the version's own text)`
            : undefined,
      },
    )
    .describe(
      "The version's texts in other languages; a text left out is shown in English. Scoring never reads them",
    );
}

export type ContentTranslations = z.infer<ReturnType<typeof contentTranslationsSchema>>;
export type TranslatedTexts = NonNullable<ContentTranslations[TranslationLanguage]>;

/** What an attempt's timeline records: facts for the result detail and the PDF report, never scored. */
export const TIMELINE_KINDS = [
  'started',
  'section_reached',
  'saved',
  'offline',
  'page_hidden',
  'pasted',
  'second_device',
  'extended',
  'submitted',
  'ended',
  'timed_out',
] as const;

/** One fact of an attempt's timeline; each kind fills the fields its comment in timeline.proto names. */
export const timelineEntrySchema = z.object({
  at: z.string(),
  kind: z.enum(TIMELINE_KINDS),
  until: z.string().optional().describe('saved: the last save merged into this entry'),
  count: z.number().int().optional().describe('saved: saves merged; pasted: characters pasted'),
  seconds: z.number().int().optional().describe('offline, page_hidden: how long'),
  minutes: z.number().int().optional().describe('extended: minutes added'),
  sectionId: z.number().int().optional().describe('section_reached: the section'),
  questionId: z.string().optional().describe('pasted: the question'),
  actorId: z.string().optional().describe('extended, ended: the administrator'),
});
