/** The shapes the student service answers with (api.md, "Student service, student side"). */

export type QuestionType = 'yes_no' | 'multiple_choice' | 'file_upload';

export interface StudentResultSection {
  id: number;
  title: string;
  score: number;
  totalPoints: number;
  correct: number;
  questions: number;
  percentage: number;
}

export interface StudentResult {
  _id: string;
  attemptId: string;
  attemptNumber: number;
  score: number;
  totalPoints: number;
  percentage: number;
  passed: boolean;
  canRetake: boolean;
  assessmentCode?: string | null;
  completedAt: string;
  passingScore: number;
  /** The signed certificate download link while it is valid (a passed result whose certificate is ready). */
  certificateUrl?: string | null;
  sections: StudentResultSection[];
}

export interface Answer {
  questionId: string;
  answer: string;
}

export interface UploadedFile {
  questionId: string;
  id: string;
  originalName: string;
  size: number;
  mimetype: string;
}

export interface Attempt {
  id: string;
  attemptNumber: number;
  startedAt: string;
  deadlineAt: string;
  seq: number;
  answers: Answer[];
  files: UploadedFile[];
}

export interface QuestionFile {
  originalName: string;
  filename: string;
  size: number;
  url: string;
  mimetype: string;
}

export interface StudentQuestion {
  id: string;
  type: QuestionType;
  question: string;
  section: number;
  points: number;
  required: boolean;
  options: { id: string; text: string }[];
  fileInstructions?: string;
  hasDownloadableFile?: boolean;
  downloadableFile?: QuestionFile | null;
}

export interface StudentSection {
  id: number;
  title: string;
  description?: string;
}

export interface StudentAssessment {
  versionId: string;
  version: number;
  title: string;
  description: string;
  timeLimit: number;
  passingScore: number;
  sections: StudentSection[];
  questions: StudentQuestion[];
}

export interface PreviousAttempt {
  percentage: number;
  passed: boolean;
  completedAt: string;
}

export interface AssessmentLoad {
  /** `extraTimePercent`: the accommodation an admin set; `timeLimitSeconds`: the student's own time, with it. */
  student: { name: string; email: string; extraTimePercent?: number; timeLimitSeconds?: number };
  alreadyCompleted: boolean;
  result: StudentResult | null;
  previousAttempt: PreviousAttempt | null;
  assessment: StudentAssessment;
  attempt: Attempt | null;
  awaitingResult: boolean;
  serverNow: string;
}

export interface StartAnswer {
  message: string;
  attempt: Attempt;
  serverNow: string;
}

export interface SubmitBody {
  attemptId: string;
  answers: Answer[];
  timeSpent: number;
  startedAt: string;
}

export type SubmitAnswer =
  | { message: string; result: StudentResult; serverNow: string }
  | { message: string; attemptId: string; status: 'scoring'; serverNow: string };
