/** The shapes the student service keeps of the assessment and of answers (plain data, stored as JSON). */

export type QuestionType = 'yes_no' | 'multiple_choice' | 'file_upload';

/** One question as the assessment service published it, answer key included. Never sent to a student. */
export interface VersionQuestion {
  id: string;
  type: QuestionType;
  question: string;
  section: number;
  points: number;
  required: boolean;
  correctAnswer: string;
  options: Array<{ id: string; text: string }>;
  fileInstructions: string;
  downloadableFile?: { filename: string; originalName: string; size: number; mimetype: string };
}

/** The service's copy of one assessment version (from assessment.version.published.v1). */
export interface AssessmentVersion {
  versionId: string;
  version: number;
  title: string;
  description: string;
  timeLimit: number;
  passingScore: number;
  sections: Array<{ id: number; title: string; description: string }>;
  questions: VersionQuestion[];
}

export interface Answer {
  questionId: string;
  answer: string;
}
