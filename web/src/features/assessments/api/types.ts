/** SPEC §3: the Assessment and Question entities as the admin screen reads and writes them. */
export type QuestionType = 'yes_no' | 'multiple_choice' | 'file_upload';

export interface Section {
  id: number;
  title: string;
  description: string;
}

export interface QuestionOption {
  id: string;
  text: string;
}

export interface DownloadableFile {
  originalName: string;
  filename: string;
  size: number;
  url?: string;
  mimetype?: string;
}

export interface Question {
  id: string;
  type: QuestionType;
  question: string;
  correctAnswer?: string;
  points: number;
  section: number;
  required: boolean;
  options?: QuestionOption[];
  fileInstructions?: string;
  hasDownloadableFile?: boolean;
  downloadableFile?: DownloadableFile | null;
}

export interface AssessmentContent {
  title: string;
  description: string;
  timeLimit: number;
  passingScore: number;
  sections: Section[];
  questions: Question[];
}

export interface Assessment extends AssessmentContent {
  version: number;
  isActive: boolean;
  createdAt: string;
  createdBy?: { name: string } | null;
  changeNotes?: string;
}

export interface AssessmentVersionSummary {
  version: number;
  isActive: boolean;
  createdAt: string;
  createdBy?: { name: string } | null;
  changeNotes?: string;
  questionCount?: number;
  sectionCount?: number;
}

export const QUESTION_TYPES: { value: QuestionType; label: string }[] = [
  { value: 'yes_no', label: 'Yes/No' },
  { value: 'multiple_choice', label: 'Multiple Choice' },
  { value: 'file_upload', label: 'File Upload' },
];

export const typeLabel = (type: QuestionType) => QUESTION_TYPES.find((t) => t.value === type)?.label ?? type;
