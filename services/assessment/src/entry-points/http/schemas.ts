import { contentTranslationsSchema, practiceQuestionSchema } from '@readiness/contracts';
import { textField } from '@readiness/kit/http';
import { z } from 'zod';
import { QUESTION_TYPES } from '../../domain/assessment';
import { TEXT_LIMITS } from '../../domain/translations';

const whole = (message: string) => z.coerce.number({ error: message }).int({ message });

const sectionSchema = z.object({
  id: whole('Section id must be a whole number').min(1, 'Section id must be at least 1'),
  title: textField({ label: 'Section title' }).max(
    TEXT_LIMITS.sectionTitle,
    `Section title must be at most ${TEXT_LIMITS.sectionTitle} characters`,
  ),
  description: textField({ label: 'Section description', multiLine: true })
    .max(
      TEXT_LIMITS.sectionDescription,
      `Section description must be at most ${TEXT_LIMITS.sectionDescription} characters`,
    )
    .default(''),
  draw: whole('Questions per student must be a whole number')
    .min(0, 'Questions per student must be 0 (all) or more')
    .optional()
    .describe(
      "How many of the section's questions each student is given, drawn when they start; 0 or absent: all",
    ),
});

const fileSchema = z.object({
  originalName: textField({ label: 'File name' }).min(1, 'File name is required').max(255),
  filename: textField({ label: 'Stored file name' }).min(1, 'Stored file name is required').max(255),
  size: z.coerce.number().int().min(0),
});

const questionSchema = z.object({
  id: textField({ label: 'Question id' })
    .trim()
    .min(1, 'Question id is required')
    .max(64, 'Question id must be at most 64 characters'),
  type: z.enum(QUESTION_TYPES, { error: 'Question type must be yes_no, multiple_choice or file_upload' }),
  question: textField({ label: 'Question text', multiLine: true }).max(
    TEXT_LIMITS.question,
    `Question text must be at most ${TEXT_LIMITS.question} characters`,
  ),
  section: whole('Question section must be a section id'),
  points: whole('Points must be a whole number').min(1, 'Points must be at least 1'),
  required: z.boolean().default(true),
  correctAnswer: textField({ label: 'Correct answer' }).max(64).optional(),
  options: z
    .array(
      z.object({
        id: textField({ label: 'Option id' }).min(1, 'Option id is required').max(64),
        text: textField({ label: 'Option text' }).max(
          TEXT_LIMITS.option,
          `Option text must be at most ${TEXT_LIMITS.option} characters`,
        ),
      }),
    )
    .max(20, 'A question has at most 20 options')
    .optional(),
  fileInstructions: textField({ label: 'File instructions', multiLine: true })
    .max(TEXT_LIMITS.fileInstructions)
    .optional(),
  hasDownloadableFile: z.boolean().optional(),
  downloadableFile: fileSchema.nullish().transform((f) => f ?? undefined),
});

const practiceSchema = z.object({
  type: z.enum(['yes_no', 'multiple_choice'], {
    error: 'Practice question type must be yes_no or multiple_choice',
  }),
  question: textField({ label: 'Practice question text', multiLine: true })
    .trim()
    .min(1, 'Practice question text is required')
    .max(TEXT_LIMITS.question, `Practice question text must be at most ${TEXT_LIMITS.question} characters`),
  options: z
    .array(
      z.object({
        id: textField({ label: 'Option id' }).min(1, 'Option id is required').max(64),
        text: textField({ label: 'Option text' })
          .trim()
          .min(1, 'Option text is required')
          .max(TEXT_LIMITS.option, `Option text must be at most ${TEXT_LIMITS.option} characters`),
      }),
    )
    .max(20, 'A question has at most 20 options')
    .default([]),
  correctAnswer: textField({ label: 'Correct answer' })
    .min(1, 'Practice question: the correct answer is required')
    .max(64),
});

/**
 * The texts in other languages, as a save sends them: each text a string without control characters (line breaks
 * only in the long ones), each file as the English one is given; which ids exist, each text's length and whether a
 * file was uploaded are the domain's checks, which name them.
 */
const translatedText = { label: 'Translated text', requiredMessage: 'A translated text must be a string' };
const translationsSchema = contentTranslationsSchema(
  textField(translatedText),
  textField({ ...translatedText, multiLine: true }),
  fileSchema,
);

/**
 * Translated texts by language, each named by its path in the language's translation (`["questions", "q2",
 * "options", "o1"]`, `["sections", "1", "title"]`, `["title"]`).
 */
const textPaths = (description: string) => {
  const paths = z
    .array(z.array(z.string().max(200)).min(1).max(4), { error: 'Each language lists paths of names' })
    .max(5000)
    .optional();
  return z
    .strictObject(
      { es: paths, fr: paths, pt: paths, ar: paths },
      {
        error: (issue) =>
          issue.code === 'unrecognized_keys'
            ? `Unknown translation language: ${issue.keys.join(', ')} (translations are for es, fr, pt and ar)`
            : undefined,
      },
    )
    .describe(description);
};

/** `PUT /api/assessment`: the full assessment, the version it was based on, and optional change notes. */
export const saveAssessmentBody = z.object({
  title: textField({ label: 'Title' })
    .trim()
    .min(1, 'Title is required')
    .max(TEXT_LIMITS.title, `Title must be at most ${TEXT_LIMITS.title} characters`),
  description: textField({ label: 'Description', multiLine: true })
    .max(TEXT_LIMITS.description, `Description must be at most ${TEXT_LIMITS.description} characters`)
    .default(''),
  timeLimit: whole('Time limit must be a whole number of minutes').min(
    1,
    'Time limit must be at least 1 minute',
  ),
  passingScore: whole('Passing score must be a whole number')
    .min(0, 'Passing score must be between 0 and 100')
    .max(100, 'Passing score must be between 0 and 100'),
  sections: z.array(sectionSchema, { error: 'Sections are required' }).max(50, 'At most 50 sections'),
  questions: z.array(questionSchema, { error: 'Questions are required' }).max(500, 'At most 500 questions'),
  shuffleQuestions: z
    .boolean({ error: 'shuffleQuestions must be true or false' })
    .default(false)
    .describe(
      'Each student gets their own order of the questions within each section, fixed when they start',
    ),
  practiceQuestion: practiceSchema
    .nullish()
    .transform((p) => p ?? null)
    .describe('One untimed question offered on the welcome page before Start: never scored, never saved'),
  shuffleOptions: z
    .boolean({ error: 'shuffleOptions must be true or false' })
    .default(false)
    .describe('Each student gets their own order of multiple-choice options, fixed when they start'),
  translations: translationsSchema.default({}),
  reviewedTranslations: textPaths(
    'Translated texts the editor confirmed as still right for the English they are saved with: they are no longer shown as outdated. A text the save changes needs no mention',
  ).default({}),
  changeNotes: textField({ label: 'Change notes', multiLine: true })
    .max(2000, 'Change notes must be at most 2000 characters')
    .nullish()
    .transform((n) => n ?? ''),
  /** The version the admin edited; a version the screen loaded carries it as `version` too. */
  baseVersion: z.coerce.number().int().min(1).nullish(),
  version: z.coerce.number().int().min(1).nullish(),
});

export const versionParams = z.object({
  version: whole('Version must be a whole number').min(1, 'Version must be a whole number'),
});

export const filenameParams = z.object({ filename: z.string().min(1).max(255) });

const createdBySchema = z.object({ name: z.string() });

const questionOut = z.object({
  id: z.string(),
  type: z.enum(QUESTION_TYPES),
  question: z.string(),
  section: z.number(),
  points: z.number(),
  required: z.boolean(),
  correctAnswer: z.string().optional(),
  options: z.array(z.object({ id: z.string(), text: z.string() })).optional(),
  fileInstructions: z.string().optional(),
  hasDownloadableFile: z.boolean(),
  downloadableFile: z.object({ originalName: z.string(), filename: z.string(), size: z.number() }).optional(),
});

export const assessmentOut = z.object({
  id: z.string(),
  version: z.number(),
  isActive: z.boolean(),
  title: z.string(),
  description: z.string(),
  timeLimit: z.number(),
  passingScore: z.number(),
  sections: z.array(
    z.object({ id: z.number(), title: z.string(), description: z.string(), draw: z.number().optional() }),
  ),
  questions: z.array(questionOut),
  practiceQuestion: practiceQuestionSchema.nullable(),
  translations: contentTranslationsSchema(),
  outdatedTranslations: textPaths(
    'Translated texts whose English changed since they were written (English changed: review), by language; a language with none is left out',
  ),
  shuffleQuestions: z.boolean(),
  shuffleOptions: z.boolean(),
  changeNotes: z.string(),
  createdAt: z.string(),
  createdBy: createdBySchema,
});

export const versionSummaryOut = z.object({
  id: z.string(),
  version: z.number(),
  isActive: z.boolean(),
  title: z.string(),
  changeNotes: z.string(),
  createdAt: z.string(),
  createdBy: createdBySchema,
  sectionCount: z.number(),
  questionCount: z.number(),
});

export const fileOut = z.object({ originalName: z.string(), filename: z.string(), size: z.number() });

export const auditOut = z.object({
  at: z.string(),
  actor: z.object({ id: z.string(), name: z.string() }),
  action: z.string(),
  details: z.record(z.string(), z.unknown()),
});

/** `POST /api/assessment/import`: the content read from the file, as a save takes it, with the preview's figures. */
export const importOut = z.object({
  content: assessmentOut.pick({
    title: true,
    description: true,
    timeLimit: true,
    passingScore: true,
    sections: true,
    questions: true,
    practiceQuestion: true,
    translations: true,
    shuffleQuestions: true,
    shuffleOptions: true,
  }),
  counts: z.object({
    sections: z.number(),
    yes_no: z.number(),
    multiple_choice: z.number(),
    file_upload: z.number(),
  }),
  leftOut: z.array(z.object({ item: z.string(), reason: z.string() })),
});
