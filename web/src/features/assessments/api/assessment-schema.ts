import { z } from 'zod';
import { adminT } from '../../../i18n/admin/admin-i18n';
import { reviewedPayload, translatableTexts, translationsPayload, type TextPaths } from './translations';
import type {
  AssessmentContent,
  ContentTranslations,
  PracticeQuestion,
  Question,
  QuestionOption,
  QuestionType,
  SaveBody,
  Section,
} from './types';

/** SPEC §5: the upload accepts these extensions, and the file input offers only them. */
export const ACCEPTED_FILE_TYPES = ['jpg', 'jpeg', 'png', 'gif', 'pdf', 'doc', 'docx', 'txt', 'zip'];
export const ACCEPT_ATTRIBUTE = ACCEPTED_FILE_TYPES.map((ext) => `.${ext}`).join(',');

export const isAcceptedFile = (name: string) =>
  ACCEPTED_FILE_TYPES.includes(name.split('.').pop()?.toLowerCase() ?? '');

/*
 * The messages are the admin catalogue's, read once when the schema is built: the admin app's language is fixed when
 * it loads. Only the admin screens import this module.
 */
const wholeNumber = (required: string) =>
  z.number({ error: required }).int(adminT('assessments.rule.wholeNumber'));

const sectionSchema = z.object({
  id: z.number(),
  title: z.string().trim().min(1, adminT('assessments.rule.sectionTitleRequired')),
  description: z.string(),
  /** Questions per student: absent (the field left empty) or 0 is all of them. */
  draw: z
    .number()
    .int(adminT('assessments.rule.wholeNumber'))
    .min(0, adminT('assessments.rule.drawNegative'))
    .optional(),
});

const optionSchema = z.object({
  id: z.string(),
  text: z.string().trim().min(1, adminT('assessments.rule.optionTextRequired')),
});

const fileSchema = z.object({
  originalName: z.string(),
  filename: z.string(),
  size: z.number(),
});

const questionSchema = z
  .object({
    id: z.string(),
    type: z.enum(['yes_no', 'multiple_choice', 'file_upload']),
    question: z.string().trim().min(1, adminT('assessments.rule.questionTextRequired')),
    correctAnswer: z.string().optional(),
    points: wholeNumber(adminT('assessments.rule.pointsRequired')).min(
      1,
      adminT('assessments.rule.pointsMin'),
    ),
    section: z.number({ error: adminT('assessments.rule.sectionRequired') }),
    required: z.boolean(),
    options: z.array(optionSchema).optional(),
    fileInstructions: z.string().optional(),
    hasDownloadableFile: z.boolean().optional(),
    downloadableFile: fileSchema.nullable().optional(),
  })
  .superRefine((q, ctx) => {
    if (q.type === 'yes_no' && q.correctAnswer !== 'yes' && q.correctAnswer !== 'no') {
      ctx.addIssue({
        code: 'custom',
        path: ['correctAnswer'],
        message: adminT('assessments.rule.chooseCorrectAnswer'),
      });
    }
    if (q.type === 'multiple_choice') {
      const options = q.options ?? [];
      if (options.length < 2) {
        ctx.addIssue({
          code: 'custom',
          path: ['options'],
          message: adminT('assessments.rule.optionsMin'),
        });
      }
      if (!options.some((o) => o.id === q.correctAnswer)) {
        ctx.addIssue({
          code: 'custom',
          path: ['correctAnswer'],
          message: adminT('assessments.rule.chooseCorrectAnswer'),
        });
      }
    }
    if (q.hasDownloadableFile && !q.downloadableFile) {
      ctx.addIssue({
        code: 'custom',
        path: ['downloadableFile'],
        message: adminT('assessments.rule.fileRequired'),
      });
    }
  });

/** The practice question's messages: the assessment service's own words for the same rules. */
export const PRACTICE_MESSAGES = {
  text: adminT('assessments.rule.practiceText'),
  options: adminT('assessments.rule.practiceOptions'),
  answerRequired: adminT('assessments.rule.practiceAnswerRequired'),
  answerYesNo: adminT('assessments.rule.practiceAnswerYesNo'),
  answerOption: adminT('assessments.rule.practiceAnswerOption'),
};

/**
 * The practice question as the form holds it: always there, with `enabled` for the box that offers it, so that
 * unticking the box keeps the draft. Only an offered one is checked; a yes/no one keeps its options unused.
 */
const practiceSchema = z
  .object({
    enabled: z.boolean(),
    type: z.enum(['yes_no', 'multiple_choice']),
    question: z.string().trim(),
    options: z.array(z.object({ id: z.string(), text: z.string().trim() })),
    correctAnswer: z.string(),
  })
  .superRefine((p, ctx) => {
    if (!p.enabled) return;
    const issue = (path: (string | number)[], message: string) =>
      ctx.addIssue({ code: 'custom', path, message });
    if (!p.question) issue(['question'], PRACTICE_MESSAGES.text);
    if (p.type === 'multiple_choice') {
      p.options.forEach((o, index) => {
        if (!o.text) issue(['options', index, 'text'], adminT('assessments.rule.optionTextRequired'));
      });
      if (p.options.length < 2) issue(['options'], PRACTICE_MESSAGES.options);
    }
    const answerPath = 'correctAnswer';
    if (!p.correctAnswer) issue([answerPath], PRACTICE_MESSAGES.answerRequired);
    else if (p.type === 'yes_no' && p.correctAnswer !== 'yes' && p.correctAnswer !== 'no') {
      issue([answerPath], PRACTICE_MESSAGES.answerYesNo);
    } else if (p.type === 'multiple_choice' && !p.options.some((o) => o.id === p.correctAnswer)) {
      issue([answerPath], PRACTICE_MESSAGES.answerOption);
    }
  });

/** What the draw check reads of the form's values: it runs on values other rules refuse, so nothing is sure. */
interface Unchecked {
  sections?: { id?: unknown; draw?: unknown }[];
  questions?: { section?: unknown }[];
}

/** The whole assessment as the edit form holds it; the messages are the ones the screen shows. */
export const assessmentSchema = z
  .object({
    title: z.string().trim().min(1, adminT('assessments.rule.titleRequired')),
    description: z.string(),
    timeLimit: wholeNumber(adminT('assessments.rule.timeLimitRequired')).min(
      1,
      adminT('assessments.rule.timeLimitMin'),
    ),
    passingScore: z
      .number({ error: adminT('assessments.rule.passingScoreRequired') })
      .min(0, adminT('assessments.rule.passingScoreRange'))
      .max(100, adminT('assessments.rule.passingScoreRange')),
    sections: z.array(sectionSchema).min(1, adminT('assessments.rule.sectionsMin')),
    questions: z.array(questionSchema),
    shuffleQuestions: z.boolean(),
    shuffleOptions: z.boolean(),
    practice: practiceSchema,
    /** Edited text by text in another language; what a save sends of them is `translationsPayload`'s. */
    translations: z.custom<ContentTranslations>(),
    /** The translations the editor marked as still right for a changed English ('Mark as reviewed'). */
    reviewedTranslations: z.custom<TextPaths>(),
    changeNotes: z.string(),
  })
  .superRefine((a, ctx) => {
    const sectionIds = new Set(a.sections.map((s) => s.id));
    a.questions.forEach((q, index) => {
      if (!sectionIds.has(q.section)) {
        ctx.addIssue({
          code: 'custom',
          path: ['questions', index, 'section'],
          message: adminT('assessments.rule.existingSection'),
        });
      }
    });
  })
  // A section cannot give each student more questions than it has. This runs even while another field is
  // broken (an emptied number), so the message follows the questions as they are added, removed or moved.
  .superRefine(
    (a: Unchecked, ctx) => {
      const questions = a.questions ?? [];
      (a.sections ?? []).forEach((s, index) => {
        if (typeof s.draw !== 'number') return;
        const count = questions.filter((q) => q.section === s.id).length;
        if (s.draw > count) {
          ctx.addIssue({ code: 'custom', path: ['sections', index, 'draw'], message: drawTooLarge(count) });
        }
      });
    },
    { when: () => true },
  );

/** The message of a section's draw above its question count. */
export const drawTooLarge = (count: number) => adminT('assessments.rule.drawTooLarge', { count });

export type AssessmentForm = z.infer<typeof assessmentSchema>;
export type PracticeForm = AssessmentForm['practice'];

/** An id that is a prefix plus the time, as the SPEC's question ids are; never the same twice in a row. */
let lastStamp = 0;
export function timestampId(prefix: string): string {
  lastStamp = Math.max(Date.now(), lastStamp + 1);
  return `${prefix}${lastStamp}`;
}

export const newOption = (): QuestionOption => ({
  id: timestampId('opt'),
  text: adminT('assessments.new.option'),
});

/** SPEC §5: a new question is a required yes/no question worth 1 point in section 1, answered yes. */
export const newQuestion = (): Question => ({
  id: timestampId('q'),
  type: 'yes_no',
  question: adminT('assessments.new.question'),
  correctAnswer: 'yes',
  points: 1,
  section: 1,
  required: true,
  hasDownloadableFile: false,
});

export const newSection = (sections: Section[]): Section => {
  const id = sections.reduce((max, s) => Math.max(max, s.id), 0) + 1;
  return { id, title: adminT('assessments.new.section', { id }), description: '' };
};

/** The fields a question keeps when its type changes to `type`, with that type's defaults. */
export function retype(question: Question, type: QuestionType): Question {
  const base = { ...question, type };
  if (type === 'yes_no') return { ...base, options: undefined, correctAnswer: 'yes' };
  if (type === 'file_upload') return { ...base, options: undefined, correctAnswer: undefined };
  const options = question.options?.length ? question.options : [newOption(), newOption()];
  return { ...base, options, correctAnswer: options[0]!.id };
}

/** The form's practice question: the version's, offered, or an empty draft that is not. */
function toPracticeForm(practice: PracticeQuestion | null): PracticeForm {
  if (!practice) return { enabled: false, type: 'yes_no', question: '', options: [], correctAnswer: '' };
  const { type, question, options, correctAnswer } = practice;
  return { enabled: true, type, question, options, correctAnswer };
}

/** What a save sends of the practice question: null when it is not offered; a yes/no one has no options. */
function toPracticePayload(practice: PracticeForm): PracticeQuestion | null {
  if (!practice.enabled) return null;
  const { type, question, options, correctAnswer } = practice;
  return { type, question, options: type === 'multiple_choice' ? options : [], correctAnswer };
}

/**
 * A deep copy to edit: the form never shares objects with the cached answer (Cancel discards). The copy is made
 * through JSON (what the answer came as), not structuredClone: react-hook-form copies its default values only
 * when they are plain objects of the page's own realm, and a clone from another realm (as under test) would be
 * shared between the defaults and the values, so that edits in sections and questions never counted as changes.
 */
export function toForm(content: AssessmentContent): AssessmentForm {
  const copy = JSON.parse(
    JSON.stringify({
      title: content.title,
      description: content.description,
      timeLimit: content.timeLimit,
      passingScore: content.passingScore,
      sections: content.sections,
      questions: content.questions,
      shuffleQuestions: content.shuffleQuestions,
      shuffleOptions: content.shuffleOptions,
      practice: toPracticeForm(content.practiceQuestion),
      translations: content.translations,
    }),
  ) as Omit<AssessmentForm, 'changeNotes' | 'reviewedTranslations'>;
  return {
    ...copy,
    reviewedTranslations: {},
    // Every section has its draw key, empty when it has none, so that emptying the field again is no change.
    sections: copy.sections.map((s) => ({ ...s, draw: s.draw || undefined })),
    changeNotes: '',
  };
}

export const blankAssessment: AssessmentContent = {
  title: '',
  description: '',
  timeLimit: 30,
  passingScore: 70,
  sections: [{ id: 1, title: adminT('assessments.new.section', { id: 1 }), description: '' }],
  questions: [],
  shuffleQuestions: false,
  shuffleOptions: false,
  practiceQuestion: null,
  translations: {},
  outdatedTranslations: {},
};

/** The texts students read in the form's content, as they would be saved. */
export const formTexts = (values: AssessmentForm) =>
  translatableTexts({ ...values, practiceQuestion: toPracticePayload(values.practice) });

/** What a save sends: the full assessment, the optional notes and the version it was based on. */
export function toSavePayload(values: AssessmentForm, baseVersion: number | undefined): SaveBody {
  const { changeNotes, practice, reviewedTranslations, ...content } = values;
  const texts = formTexts(values);
  const questions = content.questions.map((q) => {
    const { downloadableFile, hasDownloadableFile, ...rest } = q;
    const withFile = hasDownloadableFile && downloadableFile;
    return {
      ...rest,
      hasDownloadableFile: Boolean(withFile),
      downloadableFile: withFile
        ? {
            originalName: downloadableFile.originalName,
            filename: downloadableFile.filename,
            size: downloadableFile.size,
          }
        : null,
    };
  });
  // An empty draw (or 0) is all of the section's questions: it is left out.
  const sections = content.sections.map(({ draw, ...s }) => (draw ? { ...s, draw } : s));
  return {
    ...content,
    sections,
    questions,
    practiceQuestion: toPracticePayload(practice),
    translations: translationsPayload(values.translations, texts),
    reviewedTranslations: reviewedPayload(reviewedTranslations, values.translations, texts),
    changeNotes: changeNotes.trim(),
    ...(baseVersion !== undefined ? { baseVersion } : {}),
  };
}
