import type { AssessmentContent, Question } from './assessment';
import type { Assessments } from './assessments';
import { SEED_TRANSLATIONS } from './seed-translations';

/** The question file the sample assessment offers for download, stored by the seed itself. */
const SEED_FILE = {
  filename: 'seed-weekly-study-planner.txt',
  originalName: 'Weekly study planner.txt',
  mimetype: 'text/plain; charset=utf-8',
};

const SEED_FILE_TEXT = `Weekly study planner
====================

Fill in one line per day: when you will study, for how long, and what you will work on.

Day        | Time slot     | Minutes | Course and task
-----------|---------------|---------|----------------------------------------
Monday     |               |         |
Tuesday    |               |         |
Wednesday  |               |         |
Thursday   |               |         |
Friday     |               |         |
Saturday   |               |         |
Sunday     |               |         |

Tip: an online course of 3 credits usually asks for 6 to 9 hours of work a week.
`;

const yesNo = (id: string, section: number, question: string, correctAnswer: 'yes' | 'no'): Question => ({
  id,
  type: 'yes_no',
  question,
  section,
  points: 1,
  required: true,
  correctAnswer,
});

const choice = (
  id: string,
  section: number,
  question: string,
  options: string[],
  correct: number,
  points = 2,
): Question => ({
  id,
  type: 'multiple_choice',
  question,
  section,
  points,
  required: true,
  options: options.map((text, i) => ({ id: `${id}o${i + 1}`, text })),
  correctAnswer: `${id}o${correct}`,
});

/**
 * The sample readiness assessment a first start creates: 4 sections, 16 questions of all three types, every text
 * also in Spanish, French, Portuguese and Arabic.
 */
export function seedContent(fileSize: number): AssessmentContent {
  return {
    title: 'Distance Education Readiness Assessment',
    description:
      'Find out whether you are ready to study online: your access to technology, your computer skills, your study habits and how you communicate online.',
    timeLimit: 30,
    passingScore: 70,
    shuffleQuestions: false,
    shuffleOptions: false,
    practiceQuestion: null,
    translations: SEED_TRANSLATIONS,
    sections: [
      { id: 1, title: 'Technology Access', description: 'The equipment and connection you can count on.' },
      { id: 2, title: 'Computer Skills', description: 'Everyday tasks an online course asks of you.' },
      {
        id: 3,
        title: 'Study Habits and Time Management',
        description: 'How you plan and keep up with your work.',
      },
      { id: 4, title: 'Online Communication', description: 'Working with teachers and classmates online.' },
    ],
    questions: [
      yesNo(
        'q1',
        1,
        'Do you have a computer (desktop or laptop) you can use for your studies every week?',
        'yes',
      ),
      yesNo(
        'q2',
        1,
        'Do you have a reliable internet connection at home or at another place you can study?',
        'yes',
      ),
      choice(
        'q3',
        1,
        'Which connection is the minimum for watching recorded lectures smoothly?',
        [
          'A mobile connection with a small data plan',
          'A broadband connection of at least 5 Mbit/s',
          'No connection: lectures can be watched offline',
        ],
        2,
      ),
      yesNo('q4', 1, 'Is a phone alone enough to complete every task of an online course?', 'no'),
      choice(
        'q5',
        2,
        'You need to send your teacher an essay written in a word processor. What do you do?',
        [
          'Paste a screenshot of it into a message',
          'Attach the saved document file to the message or upload it to the course',
          'Print it and post it',
        ],
        2,
      ),
      yesNo('q6', 2, 'Can you create a folder, and move and rename files on your computer?', 'yes'),
      choice(
        'q7',
        2,
        'A course page will not load. What is the best first step?',
        [
          'Reinstall the operating system',
          'Reload the page, then check your connection or try another browser',
          'Give up on the assignment',
        ],
        2,
      ),
      {
        id: 'q8',
        type: 'file_upload',
        question:
          'Upload a short document (PDF, Word or text) with one paragraph on why you want to study online.',
        section: 2,
        points: 3,
        required: true,
        fileInstructions: 'One paragraph is enough. Accepted: pdf, doc, docx, txt, jpg, jpeg, png.',
      },
      yesNo('q9', 3, 'Can you set aside at least 6 hours a week for one online course?', 'yes'),
      choice(
        'q10',
        3,
        'An assignment is due in two weeks. When do you start?',
        ['The night before it is due', 'This week, in planned steps', 'When a reminder arrives'],
        2,
      ),
      {
        id: 'q11',
        type: 'file_upload',
        question: 'Download the weekly study planner, fill in a realistic week, and upload it.',
        section: 3,
        points: 3,
        required: false,
        fileInstructions: 'Fill in one line per day, save the file and upload it here.',
        hasDownloadableFile: true,
        downloadableFile: {
          filename: SEED_FILE.filename,
          originalName: SEED_FILE.originalName,
          size: fileSize,
        },
      },
      yesNo('q12', 3, 'Do you usually keep working when nobody checks on your progress?', 'yes'),
      choice(
        'q13',
        3,
        'Where do you study best?',
        [
          'In a quiet place with few interruptions',
          'In front of the television',
          'Anywhere, while doing other things',
        ],
        1,
      ),
      yesNo(
        'q14',
        4,
        'Is it acceptable to write to a teacher in all capital letters when you are in a hurry?',
        'no',
      ),
      choice(
        'q15',
        4,
        'You do not understand an assignment. What do you do?',
        [
          'Wait for the deadline to pass',
          'Ask a clear question in the course forum or write to the teacher',
          "Copy a classmate's work",
        ],
        2,
      ),
      yesNo('q16', 4, 'Are you comfortable taking part in a video call with your class?', 'yes'),
    ],
  };
}

/**
 * Creates the sample assessment once, when no version exists: the file first (a fixed name, so two replicas
 * starting together store the same object), then the version, under the versions lock.
 */
export async function seedAssessment(assessments: Assessments): Promise<boolean> {
  if ((await assessments.versions()).length > 0) return false;
  const data = Buffer.from(SEED_FILE_TEXT, 'utf8');
  await assessments.storeOwnFile({ ...SEED_FILE, size: data.length }, data);
  const created = await assessments.save({
    content: seedContent(data.length),
    changeNotes: 'Sample readiness assessment created on first start',
    actor: { id: '', name: 'System' },
    onlyIfEmpty: true,
  });
  return Boolean(created);
}
