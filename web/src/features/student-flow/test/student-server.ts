import { timestampFromDate } from '@readiness/contracts';
import { resultFailed, resultRecorded } from '@readiness/testing/fixtures';
import { act, screen } from '@testing-library/react';
import { HttpResponse } from 'msw';
import type { Language } from '../../../i18n/languages';
import { answer, refusal } from '../../../testing/answer';
import { http } from '../../../testing/openapi-http';
import { renderStudentApp } from '../../../testing/render-student';
import { studentResultOf } from '../../../testing/seeded';
import { server } from '../../../testing/server';
import type {
  ActivityBody,
  Answer,
  ContentTranslations,
  Attempt,
  PreviousAttempt,
  StudentAssessment,
  StudentResult,
  StudentSection,
  UploadedFile,
  WaitingRoomFigures,
} from '../api/types';

/*
 * An in-memory stand-in for the student service's student side (api.md): the assessment for a token,
 * one attempt at a time with a server clock, autosave keeping the newest sequence, uploads with the
 * allow-list and size cap, idempotent submit, the results list, and the student's language.
 */
export const TOKEN = 'tok-ada';

/**
 * The version's texts in other languages, each leaving something out: French translates everything, Arabic leaves
 * question q3, section 2's description and option o2 (empty) in English, Spanish only has its title and section 1's
 * title (its description empty). Portuguese has none.
 */
export const translations: ContentTranslations = {
  es: {
    title: 'Preparación para el aprendizaje en línea',
    sections: { '1': { title: 'Tecnología', description: '' } },
  },
  fr: {
    title: 'Préparation à l’apprentissage en ligne',
    description: 'Êtes-vous prêt à étudier à distance ?',
    sections: {
      '1': { title: 'Technologie', description: 'Vos appareils et votre connexion.' },
      '2': { title: 'Habitudes d’étude', description: 'Comment vous organisez votre apprentissage.' },
      '3': { title: 'Motivation' },
    },
    questions: {
      q1: { question: 'Avez-vous un ordinateur à la maison ?' },
      q2: {
        question: 'Quelle est la vitesse de votre connexion internet ?',
        options: { o1: 'Lente', o2: 'Rapide' },
      },
      q3: { question: 'Quand étudiez-vous le mieux ?', options: { o3: 'Le matin', o4: 'Le soir' } },
      q4: {
        question: 'Téléversez votre plan d’étude hebdomadaire',
        fileInstructions: 'Remplissez le modèle et téléversez-le.',
      },
      q5: { question: 'Êtes-vous prêt à commencer ?' },
    },
    practiceQuestion: {
      question: 'Quelle planète est la plus proche du Soleil ?',
      options: { p1: 'Vénus', p2: 'Mercure', p3: 'Mars' },
    },
  },
  ar: {
    title: 'الاستعداد للتعلم عبر الإنترنت',
    description: 'ما مدى استعدادك للدراسة عن بُعد؟',
    sections: {
      '1': { title: 'التقنية', description: 'أجهزتك واتصالك.' },
      '2': { title: 'عادات الدراسة' },
      '3': { title: 'الدافعية' },
    },
    questions: {
      q1: { question: 'هل لديك حاسوب في المنزل؟' },
      q2: { question: 'ما سرعة اتصالك بالإنترنت؟', options: { o1: 'بطيء', o2: '' } },
      q4: { question: 'ارفع خطتك الدراسية الأسبوعية', fileInstructions: 'املأ النموذج ثم ارفعه.' },
      q5: { question: 'هل أنت مستعد للبدء؟' },
    },
    practiceQuestion: {
      question: 'ما أقرب كوكب إلى الشمس؟',
      options: { p1: 'الزهرة', p2: 'عطارد', p3: 'المريخ' },
    },
  },
};

/**
 * The assessment as the service holds it, every question and every language: it never sends it whole (`served`).
 * Its sections' question counts are the service's to work out.
 */
export type WholeAssessment = Omit<StudentAssessment, 'sections'> & {
  sections: Array<Omit<StudentSection, 'questionCount'>>;
};

export const assessment: WholeAssessment = {
  versionId: 'v-3',
  version: 3,
  title: 'Online Learning Readiness',
  description: 'How ready are you to study at a distance?',
  timeLimit: 30,
  passingScore: 70,
  sections: [
    { id: 1, title: 'Technology', description: 'Your devices and connection.' },
    { id: 2, title: 'Study Habits', description: 'How you organise your learning.' },
    { id: 3, title: 'Motivation', description: '' },
  ],
  questions: [
    {
      id: 'q1',
      type: 'yes_no',
      question: 'Do you have a computer at home?',
      section: 1,
      points: 1,
      required: true,
      options: [],
      fileInstructions: '',
      hasDownloadableFile: false,
    },
    {
      id: 'q2',
      type: 'multiple_choice',
      question: 'How fast is your internet connection?',
      section: 1,
      points: 2,
      required: false,
      options: [
        { id: 'o1', text: 'Slow' },
        { id: 'o2', text: 'Fast' },
      ],
      fileInstructions: '',
      hasDownloadableFile: false,
    },
    {
      id: 'q3',
      type: 'multiple_choice',
      question: 'When do you study best?',
      section: 2,
      points: 1,
      required: true,
      options: [
        { id: 'o3', text: 'Mornings' },
        { id: 'o4', text: 'Evenings' },
      ],
      fileInstructions: '',
      hasDownloadableFile: false,
    },
    {
      id: 'q4',
      type: 'file_upload',
      question: 'Upload your weekly study plan',
      section: 2,
      points: 3,
      required: true,
      options: [],
      fileInstructions: 'Fill in the template and upload it.',
      hasDownloadableFile: true,
      downloadableFile: {
        originalName: 'study-plan-template.docx',
        filename: 'f-123.docx',
        size: 2048,
        url: '/api/assessment/files/f-123.docx',
        mimetype: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      },
    },
    {
      id: 'q5',
      type: 'yes_no',
      question: 'Are you ready to start?',
      section: 3,
      points: 1,
      required: true,
      options: [],
      fileInstructions: '',
      hasDownloadableFile: false,
    },
  ],
  practiceQuestion: null,
  translations,
};

/** A practice question the version may offer before Start, with its answer (the welcome page checks it). */
export const practiceQuestion: NonNullable<StudentAssessment['practiceQuestion']> = {
  type: 'multiple_choice',
  question: 'Which planet is closest to the Sun?',
  options: [
    { id: 'p1', text: 'Venus' },
    { id: 'p2', text: 'Mercury' },
    { id: 'p3', text: 'Mars' },
  ],
  correctAnswer: 'p2',
};

/**
 * The result the results service records for Ada's first attempt at the shared fixtures' assessment (every answer
 * right), as the student service lists it: its figures are the service's, not this file's.
 */
export const seededResult = () =>
  resultRecorded({
    resultId: 'r-1',
    attemptId: 'att-1',
    completedAt: timestampFromDate(new Date('2026-03-02T10:00:00.000Z')),
  });

export const makeResult = (overrides: Partial<StudentResult> = {}): StudentResult => ({
  ...studentResultOf(seededResult()),
  ...overrides,
});

/** The same attempt with one answer wrong (`resultFailed`): below the pass mark, a retake allowed. */
export const seededFailedResult = () =>
  resultFailed({
    resultId: 'r-1',
    attemptId: 'att-1',
    completedAt: timestampFromDate(new Date('2026-03-02T10:00:00.000Z')),
  });

export const makeFailedResult = (overrides: Partial<StudentResult> = {}): StudentResult => ({
  ...studentResultOf(seededFailedResult()),
  ...overrides,
});

/** A report of `POST …/activity` as the server received it, with what it answered. */
export interface ActivityReport extends ActivityBody {
  keepalive: boolean;
  status: number;
}

interface Put {
  attemptId: string;
  seq: number;
  answers: Answer[];
  keepalive: boolean;
}

export const db = {
  /** How far the server's clock is ahead of the test's (milliseconds). */
  clockAhead: 0,
  student: { name: 'Ada Lovelace', email: 'ada@example.edu', extraTimePercent: 0, timeLimitSeconds: 1800 },
  assessment,
  attempt: null as Attempt | null,
  previousAttempt: null as PreviousAttempt | null,
  alreadyCompleted: false,
  awaitingResult: false,
  results: [] as StudentResult[],
  /** What the next submit answers: the result at once, or 202 while it is scored. */
  submitAnswers: 'result' as 'result' | 'scoring',
  /** The result a submit records (passed by default). */
  nextResult: makeResult({ attemptId: 'att-1' }),
  puts: [] as Put[],
  /** While true, autosave requests fail as they do without a connection. */
  offline: false,
  submits: [] as { idempotencyKey: string | null; body: Record<string, unknown> }[],
  uploads: [] as UploadedFile[],
  resultRequests: 0,
  /** The attempt's activity reports that reached the server, each with the status it was answered. */
  activity: [] as ActivityReport[],
  /** How the activity endpoint answers: 204 and recorded, a status of its own, or no connection. */
  activityAnswer: 'record' as 'record' | 'offline' | 'hang' | number,
  /** The language the server resolved for the student (theirs, else the browser's, else English). */
  language: 'en' as Language,
  /** The language switches that reached the server, in order. */
  languagePuts: [] as Language[],
  /** How the language switch answers: 200 and kept, or no connection. */
  languageAnswer: 'keep' as 'keep' | 'offline',
  /** The waiting room's line: none admits every Start at once; else Start answers 202 until it serves the ticket. */
  line: null as WaitingLine | null,
  /** The ticket Ada's token holds in the line (the same on every Start). */
  ticket: null as number | null,
  /** How many times Start was called. */
  starts: 0,
  /** How many times the line's figures were asked for. */
  linePolls: 0,
  /** How the line's figures answer: 200, or no connection. */
  lineAnswer: 'answer' as 'answer' | 'offline',
};

/** The line as the student service holds it: the ticket being served, the rate, and the next ticket it hands out. */
export interface WaitingLine {
  serving: number;
  perMinute: number;
  waiting: number;
  nextTicket: number;
}

export function resetStudentDb(): void {
  db.clockAhead = 0;
  db.student = {
    name: 'Ada Lovelace',
    email: 'ada@example.edu',
    extraTimePercent: 0,
    timeLimitSeconds: 1800,
  };
  db.assessment = assessment;
  db.attempt = null;
  db.previousAttempt = null;
  db.alreadyCompleted = false;
  db.awaitingResult = false;
  db.results = [];
  db.submitAnswers = 'result';
  db.nextResult = makeResult({ attemptId: 'att-1' });
  db.puts = [];
  db.offline = false;
  db.submits = [];
  db.uploads = [];
  db.resultRequests = 0;
  db.activity = [];
  db.activityAnswer = 'record';
  db.language = 'en';
  db.languagePuts = [];
  db.languageAnswer = 'keep';
  db.line = null;
  db.ticket = null;
  db.starts = 0;
  db.linePolls = 0;
  db.lineAnswer = 'answer';
}

/** The line's public figures as `GET /api/waiting-room` and its stream's `line` messages send them. */
export function lineFigures(): WaitingRoomFigures {
  const { serving, perMinute, waiting } = db.line ?? { serving: 0, perMinute: 1, waiting: 0 };
  return { serving, perMinute, waiting, serverNow: serverNow() };
}

/**
 * What the service sends of the assessment (issue 43 item 2): each section with how many questions a student
 * answers; no question before Start, then only the attempt's own (every one without a paper), in every language.
 */
export function served(whole: WholeAssessment, attempt: Attempt | null): StudentAssessment {
  const sections = whole.sections.map((s) => {
    const all = whole.questions.filter((q) => q.section === s.id).length;
    return { ...s, questionCount: s.draw && s.draw < all ? s.draw : all };
  });
  const given = new Set(attempt ? (attempt.paper?.questionIds ?? whole.questions.map((q) => q.id)) : []);
  const translations: ContentTranslations = {};
  for (const [language, t] of Object.entries(whole.translations) as Array<
    [keyof ContentTranslations, NonNullable<ContentTranslations[keyof ContentTranslations]>]
  >) {
    const { questions, ...rest } = t;
    const kept = Object.entries(questions ?? {}).filter(([id]) => given.has(id));
    translations[language] = kept.length > 0 ? { ...rest, questions: Object.fromEntries(kept) } : rest;
  }
  return { ...whole, sections, questions: whole.questions.filter((q) => given.has(q.id)), translations };
}

export const serverNow = () => new Date(Date.now() + db.clockAhead).toISOString();

/** An attempt in progress as the server holds it, started `minutesAgo` with `minutesLeft` to go. */
export function attemptInProgress(overrides: Partial<Attempt> = {}, minutesLeft = 20): Attempt {
  const now = Date.now() + db.clockAhead;
  return {
    id: 'att-1',
    attemptNumber: 1,
    startedAt: new Date(now - 10 * 60_000).toISOString(),
    deadlineAt: new Date(now + minutesLeft * 60_000).toISOString(),
    seq: 0,
    answers: [],
    files: [],
    // No paper of its own: the version's questions in the version's order.
    paper: null,
    ...overrides,
  };
}

/**
 * An attempt whose every required answer is saved (q1, q3 and q5, q4's file uploaded), at sequence 9: one the
 * student may submit.
 */
export const attemptAnswered = (minutesLeft?: number): Attempt =>
  attemptInProgress(
    {
      seq: 9,
      answers: [
        { questionId: 'q1', answer: 'yes' },
        { questionId: 'q3', answer: 'o4' },
        { questionId: 'q5', answer: 'no' },
      ],
      files: [
        { questionId: 'q4', id: 'file-1', originalName: 'plan.pdf', size: 2048, mimetype: 'application/pdf' },
      ],
    },
    minutesLeft,
  );

const notFound = () => refusal(404, { message: 'Invalid or expired invitation link', code: 'not_found' });

const ALLOWED = /\.(pdf|docx?|txt|jpe?g|png)$/i;
export const MAX_UPLOAD_BYTES = 1000;

const handlers = [
  http.get('/api/student/{token}', ({ params }) =>
    params.token === TOKEN
      ? answer('/api/student/{token}', 'get', { student: { name: db.student.name, email: db.student.email } })
      : notFound(),
  ),
  http.get('/api/student/{token}/assessment', ({ params }) => {
    if (params.token !== TOKEN) return notFound();
    return answer('/api/student/{token}/assessment', 'get', {
      student: db.student,
      alreadyCompleted: db.alreadyCompleted,
      result: db.alreadyCompleted ? (db.results[0] ?? null) : null,
      previousAttempt: db.previousAttempt,
      assessment: served(db.assessment, db.attempt),
      attempt: db.attempt,
      awaitingResult: db.awaitingResult,
      serverNow: serverNow(),
      language: db.language,
    });
  }),
  http.put('/api/student/{token}/language', async ({ request, params }) => {
    if (db.languageAnswer === 'offline') return HttpResponse.error();
    if (params.token !== TOKEN) return notFound();
    const { language } = await request.json();
    db.languagePuts.push(language);
    db.language = language;
    return answer('/api/student/{token}/language', 'put', { language });
  }),
  http.post('/api/student/{token}/start', ({ params }) => {
    if (params.token !== TOKEN) return notFound();
    db.starts += 1;
    // A student with an attempt in progress is never queued; a token keeps its ticket.
    if (!db.attempt && db.line) {
      db.ticket ??= db.line.nextTicket++;
      if (db.ticket > db.line.serving) {
        const ahead = db.ticket - db.line.serving - 1;
        const { serving, perMinute, waiting } = db.line;
        return answer(
          '/api/student/{token}/start',
          'post',
          {
            message: 'You are in line to start',
            waiting: {
              ticket: db.ticket,
              ahead,
              estimateSeconds: Math.ceil(((ahead + 1) * 60) / perMinute),
              checkAfterSeconds: 5,
            },
            line: { serving, perMinute, waiting },
            serverNow: serverNow(),
          },
          { status: 202 },
        );
      }
    }
    const created = !db.attempt;
    db.attempt ??= attemptInProgress({ startedAt: serverNow() }, db.assessment.timeLimit);
    const started = {
      message: 'Assessment started. Good luck!',
      attempt: db.attempt,
      assessment: served(db.assessment, db.attempt),
      serverNow: serverNow(),
    };
    return created
      ? answer('/api/student/{token}/start', 'post', started, { status: 201 })
      : answer('/api/student/{token}/start', 'post', started);
  }),
  http.get('/api/waiting-room', () => {
    db.linePolls += 1;
    if (db.lineAnswer === 'offline') return HttpResponse.error();
    return answer('/api/waiting-room', 'get', lineFigures());
  }),
  http.put('/api/student/{token}/answers', async ({ request }) => {
    if (db.offline) return HttpResponse.error();
    const body = await request.json();
    db.puts.push({ ...body, keepalive: request.keepalive });
    if (!db.attempt || db.attempt.id !== body.attemptId) {
      return refusal(409, { message: 'Attempt closed', code: 'attempt_closed' });
    }
    if (body.seq > db.attempt.seq) db.attempt = { ...db.attempt, seq: body.seq, answers: body.answers };
    return answer('/api/student/{token}/answers', 'put', {
      seq: db.attempt.seq,
      savedAt: serverNow(),
      serverNow: serverNow(),
    });
  }),
  http.post('/api/student/{token}/files', async ({ request }) => {
    const form = await request.formData();
    const file = form.get('file') as File;
    if (!ALLOWED.test(file.name)) {
      return refusal(400, {
        message: 'Only PDF, Word (doc, docx), text and image (jpg, jpeg, png) files can be uploaded',
        code: 'file_type',
      });
    }
    if (file.size > MAX_UPLOAD_BYTES) {
      return refusal(413, { message: 'The file is larger than 10 MB', code: 'file_too_large' });
    }
    const uploaded: UploadedFile = {
      questionId: String(form.get('questionId')),
      id: `file-${db.uploads.length + 1}`,
      originalName: file.name,
      size: file.size,
      mimetype: file.type,
    };
    db.uploads.push(uploaded);
    return answer('/api/student/{token}/files', 'post', { file: uploaded }, { status: 201 });
  }),
  http.delete('/api/student/{token}/files/{questionId}', () =>
    answer('/api/student/{token}/files/{questionId}', 'delete', { message: 'File removed' }),
  ),
  http.post('/api/student/{token}/activity', async ({ request, params, response }) => {
    if (db.activityAnswer === 'offline') return HttpResponse.error();
    if (db.activityAnswer === 'hang') return new Promise<Response>(() => undefined);
    if (params.token !== TOKEN) return notFound();
    const body: ActivityBody = await request.json();
    const refused =
      typeof db.activityAnswer === 'number'
        ? db.activityAnswer
        : !/^[A-Za-z0-9_-]{8,64}$/.test(body.deviceId) || body.entries.length > 50
          ? 400
          : !db.attempt || db.attempt.id !== body.attemptId
            ? 409
            : null;
    db.activity.push({ ...body, keepalive: request.keepalive, status: refused ?? 204 });
    return refused
      ? refusal(refused, { message: 'Refused', code: 'refused' })
      : response.untyped(new HttpResponse(null, { status: 204 }));
  }),
  http.post('/api/student/{token}/submit', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    const idempotencyKey = request.headers.get('idempotency-key');
    db.submits.push({ idempotencyKey, body });
    const already = db.results.find((r) => r.attemptId === body.attemptId);
    if (db.submitAnswers === 'scoring' && !already) {
      db.attempt = null;
      return answer(
        '/api/student/{token}/submit',
        'post',
        {
          message: 'Assessment submitted successfully!',
          attemptId: String(body.attemptId),
          status: 'scoring',
          serverNow: serverNow(),
        },
        { status: 202 },
      );
    }
    const result = already ?? db.nextResult;
    if (!already) db.results = [result, ...db.results];
    db.attempt = null;
    return answer('/api/student/{token}/submit', 'post', {
      message: 'Assessment submitted successfully!',
      result,
      serverNow: serverNow(),
    });
  }),
  http.get('/api/student/{token}/results', () => {
    db.resultRequests += 1;
    return answer('/api/student/{token}/results', 'get', { results: db.results });
  }),
];

/** Installs the stand-in for one test file, on top of the shared handlers. */
export function useStudentServer(): void {
  beforeEach(() => {
    resetStudentDb();
    server.use(...handlers);
  });
}

/*
 * The waiting page (waiting-room.place and waiting-room.stream): Ada presses Start and the line answers 202. The
 * poll's jitter is at its shortest (every 5 s while the page is seen) and the timers are fake, moved by `later`.
 */

/** Ada's ticket: 312th in a line serving 4700 at 196 a minute (the contract's example). */
export const TICKET = 5012;

/** Installs the stand-in with that line for one test file. */
export function useWaitingLine(): void {
  useStudentServer();
  beforeEach(() => {
    db.line = { serving: 4700, perMinute: 196, waiting: 2890, nextTicket: TICKET };
    jest.spyOn(Math, 'random').mockReturnValue(0);
    jest.useFakeTimers({ advanceTimers: true });
  });
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
    Reflect.deleteProperty(document, 'visibilityState');
    window.sessionStorage.clear();
  });
}

export const waitingCard = () => screen.findByRole('region', { name: 'You are in line to start' });
/** What a screen reader is told: the card's polite live region. */
export const spoken = (card: HTMLElement) => card.querySelector('[aria-live="polite"]')!;
/** The place as it is seen, moving each second. */
export const seenPlace = (card: HTMLElement) =>
  Number(
    /number (\d[\d,]*) in line/
      .exec(card.querySelector('.waiting__place')!.textContent!)![1]!
      .replace(',', ''),
  );
/** The test's clock moves on, the page's timers with it. */
export const later = (ms: number) => act(() => jest.advanceTimersByTimeAsync(ms));

export function setVisibility(state: 'hidden' | 'visible') {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  act(() => {
    document.dispatchEvent(new Event('visibilitychange'));
  });
}

/** Ada opens her link and presses Start; the line answers 202. */
export async function pressStartIntoLine() {
  const app = renderStudentApp(`/assessment/${TOKEN}`);
  await app.user.click(await screen.findByRole('button', { name: 'Start Assessment' }));
  const card = await waitingCard();
  return { ...app, card };
}

/**
 * The browser's EventSource as far as the pages use it: each instance is kept so a test can speak through it, fail it
 * as the browser does, and see whether the page closed it.
 */
export class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static instances: FakeEventSource[] = [];
  readyState: number = FakeEventSource.OPEN;
  /** Whether the page called close(). */
  closedByPage = false;
  /** When the page opened it, on the test's clock (fake while timers are). */
  readonly openedAt = Date.now();
  private readonly listeners = new Map<string, Set<(event: MessageEvent) => void>>();

  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }

  addEventListener(type: string, listener: (event: MessageEvent) => void) {
    const listeners = this.listeners.get(type) ?? new Set();
    listeners.add(listener);
    this.listeners.set(type, listeners);
  }

  removeEventListener(type: string, listener: (event: MessageEvent) => void) {
    this.listeners.get(type)?.delete(listener);
  }

  /** Whether the stream is closed, by the page or by the browser giving up. */
  get closed() {
    return this.readyState === FakeEventSource.CLOSED;
  }

  close() {
    this.closedByPage = true;
    this.readyState = FakeEventSource.CLOSED;
  }

  /**
   * The connection failed: `closed`, the browser gave up (a refusal, an answer that is not a stream); else it is
   * connecting again by itself.
   */
  fail({ closed }: { closed: boolean }) {
    this.readyState = closed ? FakeEventSource.CLOSED : FakeEventSource.CONNECTING;
    act(() => {
      for (const listener of this.listeners.get('error') ?? []) listener(new MessageEvent('error'));
    });
  }

  /** The server sends a message (a closed stream delivers nothing; a reconnected one is open again). */
  emit(type: string, data: unknown) {
    if (this.readyState === FakeEventSource.CLOSED) return;
    this.readyState = FakeEventSource.OPEN;
    act(() => {
      for (const listener of this.listeners.get(type) ?? []) {
        listener(new MessageEvent(type, { data: JSON.stringify(data) }));
      }
    });
  }
}

/** Gives the page the fake EventSource for each test of the file (jsdom has none). */
export function useFakeEventSource(): void {
  beforeEach(() => {
    FakeEventSource.instances = [];
    Object.defineProperty(globalThis, 'EventSource', {
      configurable: true,
      writable: true,
      value: FakeEventSource,
    });
  });
  afterEach(() => {
    Reflect.deleteProperty(globalThis, 'EventSource');
  });
}
