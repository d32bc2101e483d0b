import { randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  AssessmentVersionPublishedSchema,
  QuestionType,
  ResultRecordedSchema,
  create,
  timelineMessages,
  timestampFromDate,
  type TimelineFact,
} from '@readiness/contracts';

// What the report service consumes, as its owners publish it, and how its PDFs are read: shared by the service's
// tests and by the image test that renders a certificate inside the report image.

/** The text of a PDF, as poppler's pdftotext reads it. */
export function pdfText(pdf: Buffer | Uint8Array): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'report-pdf-'));
  try {
    const file = path.join(dir, 'file.pdf');
    writeFileSync(file, pdf);
    return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface ResultFacts {
  resultId: string;
  studentId: string;
  name: string;
  email: string;
  passed: boolean;
  /** Without `score` and `totalPoints`: the result scores this many of 100 points. */
  percentage: number;
  score?: number;
  totalPoints?: number;
  assessmentCode: string;
  versionId: string;
  /** The second question was optional and left unanswered. */
  secondSkipped?: boolean;
  /** The attempt was given the second question alone (a section's draw): the first on its paper. */
  drawnSecondOnly?: boolean;
  /** What happened during the attempt. */
  timeline?: TimelineFact[];
  /** The attempt's language; left out, as a results service older than languages leaves it. */
  language?: string;
  /** The assessment's title in that language; left out, as a results service older than it leaves it. */
  localizedTitle?: string;
}

export const VERSION_ID = 'version-1';

/** A result as the results service records it, passed by default. */
export function resultFacts(overrides: Partial<ResultFacts> = {}): ResultFacts {
  const code = `RDY-${randomUUID().slice(0, 4)}-${randomUUID().slice(0, 4)}`.toUpperCase();
  return {
    resultId: randomUUID(),
    studentId: randomUUID(),
    name: 'Ada Lovelace',
    email: 'ada@example.edu',
    passed: true,
    percentage: 85,
    assessmentCode: code,
    versionId: VERSION_ID,
    ...overrides,
  };
}

/** The version the results refer to, as the assessment service publishes it: two sections, one question each. */
export function versionPublished() {
  return create(AssessmentVersionPublishedSchema, {
    versionId: VERSION_ID,
    version: 1,
    active: true,
    title: 'Distance Learning Readiness',
    passingScore: 70,
    sections: [
      { id: 1, title: 'Technology', description: '' },
      { id: 2, title: 'Study habits', description: '' },
    ],
    questions: [
      {
        id: 'q1',
        type: QuestionType.YES_NO,
        question: 'Do you have a reliable internet connection at home?',
        section: 1,
        points: 1,
        correctAnswer: 'yes',
      },
      {
        id: 'q2',
        type: QuestionType.MULTIPLE_CHOICE,
        question: 'How many hours a week can you set aside for study?',
        section: 2,
        points: 1,
        correctAnswer: 'o3',
        options: [
          { id: 'o1', text: 'Fewer than 2' },
          { id: 'o2', text: 'Between 2 and 5' },
          { id: 'o3', text: 'More than 5' },
        ],
      },
    ],
  });
}

/** The result of `facts`, as the results service publishes it. */
export function resultRecorded(facts: ResultFacts) {
  const score = facts.score ?? facts.percentage;
  const totalPoints = facts.totalPoints ?? 100;
  return create(ResultRecordedSchema, {
    resultId: facts.resultId,
    attemptId: randomUUID(),
    studentId: facts.studentId,
    name: facts.name,
    email: facts.email,
    score,
    totalPoints,
    // The whole percent, rounded, as the results service sends it: never what is shown.
    percentage: Math.round((score * 100) / totalPoints),
    passed: facts.passed,
    attemptNumber: 1,
    canRetake: !facts.passed,
    assessmentCode: facts.assessmentCode,
    completedAt: timestampFromDate(new Date('2026-11-20T10:30:00Z')),
    sections: [
      {
        sectionId: 1,
        title: 'Technology',
        score: 1,
        totalPoints: 1,
        correct: 1,
        questions: 1,
        percentage: 100,
      },
      {
        sectionId: 2,
        title: 'Study habits',
        score: 1,
        totalPoints: 1,
        correct: 1,
        questions: 1,
        percentage: 100,
      },
    ],
    versionId: facts.versionId,
    version: 1,
    passingScore: 70,
    assessmentTitle: 'Distance Learning Readiness',
    timeline: timelineMessages(facts.timeline ?? []),
    language: facts.language ?? '',
    localizedTitle: facts.localizedTitle ?? '',
    answers: [
      ...(facts.drawnSecondOnly
        ? []
        : [{ questionId: 'q1', answer: 'yes', isCorrect: true, points: 1, maxPoints: 1, sectionId: 1 }]),
      facts.drawnSecondOnly
        ? {
            questionId: 'q2',
            answer: 'o3',
            isCorrect: true,
            points: 1,
            maxPoints: 1,
            sectionId: 2,
            paperPosition: 1,
          }
        : facts.secondSkipped
          ? {
              questionId: 'q2',
              answer: '',
              isCorrect: false,
              points: 0,
              maxPoints: 1,
              sectionId: 2,
              skipped: true,
            }
          : { questionId: 'q2', answer: 'o3', isCorrect: true, points: 1, maxPoints: 1, sectionId: 2 },
    ],
  });
}
