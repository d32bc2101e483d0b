import {
  contentTranslationsSchema,
  languageSchema,
  practiceQuestionSchema,
  questionKindSchema,
  sectionFiguresSchema,
  sectionSchema,
  shownPercentageSchema,
} from '@readiness/contracts';
import { z } from 'zod';

/* What the student's pages are answered with. */

export const answerOut = z.object({ questionId: z.string(), answer: z.string() });
export const fileOut = z.object({
  questionId: z.string(),
  id: z.string(),
  originalName: z.string(),
  size: z.number().int(),
  mimetype: z.string(),
});
export const attemptOut = z.object({
  id: z.string(),
  attemptNumber: z.number().int(),
  startedAt: z.string(),
  deadlineAt: z.string(),
  seq: z.number().int(),
  answers: z.array(answerOut),
  files: z.array(fileOut),
  paper: z
    .object({
      questionIds: z
        .array(z.string())
        .describe('The questions given, section by section, in the order shown'),
      options: z
        .record(z.string(), z.array(z.string()))
        .describe("Multiple-choice options' order by question, when options are shuffled"),
    })
    .nullable()
    .describe(
      "This attempt's own questions and order, fixed when it started (a section's draw, shuffling); null: every question in the version's order",
    ),
});
export const resultOut = z.object({
  _id: z.string(),
  attemptId: z.string(),
  attemptNumber: z.number().int(),
  score: z.number().int(),
  totalPoints: z.number().int(),
  percentage: shownPercentageSchema,
  passed: z.boolean(),
  canRetake: z.boolean(),
  assessmentCode: z.string(),
  completedAt: z.string(),
  passingScore: z.number().int(),
  /** The signed certificate download link while it is valid (a passed result whose certificate was issued). */
  certificateUrl: z.string().nullable(),
  sections: z.array(sectionFiguresSchema),
});
export const assessmentOut = z.object({
  versionId: z.string(),
  version: z.number().int(),
  title: z.string(),
  description: z.string(),
  timeLimit: z.number().int(),
  passingScore: z.number().int(),
  sections: z.array(
    sectionSchema.extend({
      questionCount: z
        .number()
        .int()
        .describe("How many of the section's questions each student answers (its draw, else all)"),
    }),
  ),
  questions: z
    .array(
      z.object({
        id: z.string(),
        type: questionKindSchema,
        question: z.string(),
        section: z.number().int(),
        points: z.number().int(),
        required: z.boolean(),
        options: z.array(z.object({ id: z.string(), text: z.string() })),
        fileInstructions: z.string(),
        hasDownloadableFile: z.boolean(),
        downloadableFile: z
          .object({
            originalName: z.string(),
            filename: z.string(),
            size: z.number().int(),
            url: z.string(),
            mimetype: z.string(),
          })
          .optional(),
      }),
    )
    .describe(
      "None before Start; once started, only the questions of the student's own paper (every question when the version draws nothing), in the version's order",
    ),
  practiceQuestion: practiceQuestionSchema
    .nullable()
    .describe('One untimed question to try before Start, with its answer: never scored, never saved'),
  translations: contentTranslationsSchema().describe(
    "Every language's texts; a question's only when the questions carry it (after Start, the paper's own)",
  ),
});
/** The line's figures, the same for everyone (GET /api/waiting-room, and with a ticket). */
export const lineOut = z.object({
  serving: z.number().int().describe('Tickets up to this number may start now'),
  perMinute: z.number().describe('The rate the line moves at: admissions a minute'),
  waiting: z.number().int().describe('Students in line'),
});

/** A Start that waits its turn: the student's ticket, their place, and the line (their time has not started). */
export const waitingOut = z.object({
  message: z.string(),
  waiting: z.object({
    ticket: z.number().int().describe('The place in line, kept by this link: asking again keeps it'),
    ahead: z.number().int().describe('Students before this one'),
    estimateSeconds: z.number().int().nullable().describe('About how long until this ticket is served'),
    checkAfterSeconds: z.number().int().describe('When to look again (also Retry-After)'),
  }),
  line: lineOut,
  serverNow: z.string(),
});

export const startedOut = z.object({
  message: z.string(),
  attempt: attemptOut,
  assessment: assessmentOut.describe("The assessment with the attempt's own questions (its paper)"),
  serverNow: z.string(),
});

/** What the welcome page and the test need, with the server clock. */
export const welcomeOut = z.object({
  student: z.object({
    name: z.string(),
    email: z.string(),
    extraTimePercent: z.number().int().describe('Extra time on top of the time limit, in percent'),
    timeLimitSeconds: z
      .number()
      .int()
      .describe("The student's own time: the limit plus their extra time, as Start sets it"),
  }),
  alreadyCompleted: z.boolean(),
  result: resultOut.nullable(),
  previousAttempt: z
    .object({ percentage: shownPercentageSchema, passed: z.boolean(), completedAt: z.string() })
    .nullable(),
  assessment: assessmentOut,
  attempt: attemptOut.nullable(),
  awaitingResult: z.boolean(),
  language: languageSchema.describe(
    "The language to show the pages in: the running attempt's, else the student's (chosen at invitation or by their last switch), else the best match of Accept-Language, else en",
  ),
  serverNow: z.string(),
});
