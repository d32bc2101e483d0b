import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ChevronLeft, ChevronRight, Send } from 'lucide-react';
import { Button, ConfirmDialog } from '../../../components/ui';
import { notify, useToastClearance } from '../../../lib/toast';
import { useSubmitAssessmentMutation } from '../api/student-api';
import type { Answer, AssessmentLoad, Attempt, UploadedFile } from '../api/types';
import { AnswerSaver, forgetAnswers, unsentAnswers, type SaveStatus } from '../autosave';
import { useCountdown } from '../hooks/use-countdown';
import {
  isAnswered,
  progressPercent,
  questionsOf,
  reachable,
  resumeSectionIndex,
  sectionComplete,
  type AnswerMap,
} from '../progress';
import type { CompleteState } from './complete-page';
import { QuestionCard } from './question-card';
import { SectionNav } from './section-nav';
import { TestHeader } from './test-header';

interface TestScreenProps {
  token: string;
  load: AssessmentLoad;
  attempt: Attempt;
  /** The server's clock minus this device's, in milliseconds. */
  offset: number;
  /** True right after Start: section 1 opens; a resumed attempt opens where the student left off. */
  fresh: boolean;
}

/** '2, 4 and 7' */
const listOf = (items: string[]) =>
  items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

const toMap = (answers: Answer[]): AnswerMap =>
  Object.fromEntries(answers.map((a) => [a.questionId, a.answer]));
const toList = (answers: AnswerMap): Answer[] =>
  Object.entries(answers)
    .filter(([, answer]) => answer !== '')
    .map(([questionId, answer]) => ({ questionId, answer }));

/** What the attempt opens with: the server's saved answers, or this device's newer unsent ones. */
function initialAnswers(token: string, attempt: Attempt) {
  const unsent = unsentAnswers(token, attempt.id, attempt.seq);
  return unsent
    ? { answers: toMap(unsent.answers), seq: unsent.seq, unsent: true }
    : { answers: toMap(attempt.answers), seq: attempt.seq, unsent: false };
}

export function TestScreen({ token, load, attempt, offset, fresh }: TestScreenProps) {
  const { assessment, student } = load;
  const navigate = useNavigate();
  const [initial] = useState(() => initialAnswers(token, attempt));
  const [answers, setAnswers] = useState<AnswerMap>(initial.answers);
  const [files, setFiles] = useState<Map<string, UploadedFile>>(
    () => new Map(attempt.files.map((f) => [f.questionId, f])),
  );
  const uploaded = useMemo(() => new Set(files.keys()), [files]);
  const [current, setCurrent] = useState(() =>
    fresh
      ? 0
      : resumeSectionIndex(assessment, initial.answers, new Set(attempt.files.map((f) => f.questionId))),
  );
  const [saveStatus, setSaveStatus] = useState<SaveStatus>(initial.unsent ? 'saving' : 'saved');
  const [saver] = useState(
    () =>
      new AnswerSaver({
        token,
        attemptId: attempt.id,
        seq: initial.seq,
        answers: toList(initial.answers),
        onStatus: setSaveStatus,
      }),
  );
  const [submit, { isLoading: submitting }] = useSubmitAssessmentMutation();
  const submittingRef = useRef(false);
  const timeLeftMs = useCountdown(attempt.deadlineAt, offset);
  const timeUp = timeLeftMs <= 0;
  const titleRef = useRef<HTMLHeadingElement>(null);
  const screenRef = useRef<HTMLDivElement>(null);
  useToastClearance(screenRef);

  useEffect(() => {
    if (initial.unsent) saver.markUnsent(attempt.seq);
  }, [initial.unsent, saver, attempt.seq]);

  useEffect(() => {
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') saver.leave();
    };
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('pagehide', saver.leave);
    window.addEventListener('online', saver.online);
    window.addEventListener('offline', saver.wentOffline);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('pagehide', saver.leave);
      window.removeEventListener('online', saver.online);
      window.removeEventListener('offline', saver.wentOffline);
    };
  }, [saver]);

  // Focus follows navigation to the section's title, so a screen reader starts reading there; on the
  // first render too, since the Start button that had the focus is gone.
  useEffect(() => {
    titleRef.current?.focus();
  }, [current]);

  // Kept beside the state so that each change is sent exactly once (an updater may run twice).
  const answersRef = useRef(answers);
  const setAnswer = useCallback(
    (questionId: string, answer: string) => {
      const after = { ...answersRef.current, [questionId]: answer };
      answersRef.current = after;
      setAnswers(after);
      saver.change(toList(after));
    },
    [saver],
  );

  const setFile = useCallback((questionId: string, file: UploadedFile | null) => {
    setFiles((before) => {
      const after = new Map(before);
      if (file) after.set(questionId, file);
      else after.delete(questionId);
      return after;
    });
  }, []);

  const finish = useCallback(async () => {
    if (submittingRef.current) return;
    submittingRef.current = true;
    const now = Date.now() + offset;
    const body = {
      attemptId: attempt.id,
      answers: [
        ...toList(answers).filter((a) => !files.has(a.questionId)),
        ...[...files.keys()].map((questionId) => ({ questionId, answer: 'file_uploaded' })),
      ],
      timeSpent: Math.max(0, Math.floor((now - Date.parse(attempt.startedAt)) / 60_000)),
      startedAt: attempt.startedAt,
    };
    try {
      const outcome = await submit({ token, body }).unwrap();
      saver.stop();
      forgetAnswers(token, attempt.id);
      notify.success('Assessment submitted successfully!');
      const state: CompleteState =
        'result' in outcome ? { result: outcome.result } : { waitFor: { attemptId: outcome.attemptId } };
      await navigate(`/assessment/${encodeURIComponent(token)}/complete`, { state });
    } catch {
      notify.error('Failed to submit assessment');
      submittingRef.current = false;
    }
  }, [answers, files, attempt, offset, submit, saver, token, navigate]);

  // SPEC §4: at zero the assessment is submitted by itself.
  const timeUpHandled = useRef(false);
  useEffect(() => {
    if (!timeUp || timeUpHandled.current) return;
    timeUpHandled.current = true;
    notify.info('Time is up! Submitting your assessment automatically.');
    void finish();
  }, [timeUp, finish]);

  const section = assessment.sections[current]!;
  const complete = sectionComplete(assessment, section.id, answers, uploaded);
  const isLast = current === assessment.sections.length - 1;
  const sectionQuestions = questionsOf(assessment, section.id);
  const missing = sectionQuestions
    .map((q, index) => ({ q, number: index + 1 }))
    .filter(({ q }) => q.required && !isAnswered(q, answers, uploaded));
  const answeredCount = assessment.questions.filter((q) => isAnswered(q, answers, uploaded)).length;
  const skippedOptional = assessment.questions.filter(
    (q) => !q.required && !isAnswered(q, answers, uploaded),
  ).length;
  const [confirming, setConfirming] = useState(false);
  const askToSubmit = () => {
    // A summary first when something is left unanswered; at time-up the attempt is sent as it stands.
    if (!timeUp && answeredCount < assessment.questions.length) setConfirming(true);
    else void finish();
  };
  const focusFirstMissing = () => {
    const first = missing[0];
    if (!first) return;
    const card = document.querySelector<HTMLElement>(`[data-question-id="${CSS.escape(first.q.id)}"]`);
    card?.querySelector<HTMLElement>('input, button, textarea, select')?.focus();
  };
  const open = (index: number) => {
    if (index === current) return;
    if (index > current && !reachable(assessment, index, answers, uploaded)) return;
    setCurrent(index);
  };

  return (
    <div className="test" ref={screenRef}>
      <TestHeader
        name={student.name}
        progress={progressPercent(assessment, answers, uploaded)}
        timeLeftMs={timeLeftMs}
        saveStatus={saveStatus}
      />
      <SectionNav
        sections={assessment.sections}
        current={current}
        canOpen={(index) => index < current || reachable(assessment, index, answers, uploaded)}
        onOpen={open}
      />
      <section className="test__section" aria-labelledby="section-title">
        <h2 id="section-title" className="test__section-title" ref={titleRef} tabIndex={-1}>
          {section.title}
        </h2>
        {section.description && <p className="muted">{section.description}</p>}
      </section>
      <div className="test__questions">
        {questionsOf(assessment, section.id).map((question, index) => (
          <QuestionCard
            key={question.id}
            number={index + 1}
            question={question}
            answer={answers[question.id]}
            file={files.get(question.id)}
            token={token}
            attemptId={attempt.id}
            disabled={timeUp || submitting}
            onAnswer={setAnswer}
            onFile={setFile}
          />
        ))}
      </div>
      <div className="test__footer">
        <div className="test__footer-side">
          {current > 0 && (
            <Button
              variant="secondary"
              icon={<ChevronLeft size={18} aria-hidden="true" />}
              onClick={() => open(current - 1)}
            >
              Previous Section
            </Button>
          )}
        </div>
        <p className="test__position">
          Section {current + 1} of {assessment.sections.length}
        </p>
        <div className="test__footer-side test__footer-side--end">
          {/* Once time is up the student can only submit, from wherever they are, e.g. to retry. */}
          {isLast || timeUp ? (
            <Button
              icon={<Send size={18} aria-hidden="true" />}
              loading={submitting}
              disabled={!complete && !timeUp}
              aria-describedby={complete ? undefined : 'gate-hint'}
              onClick={askToSubmit}
            >
              Submit Assessment
            </Button>
          ) : (
            <Button
              className="btn--icon-end"
              disabled={!complete}
              aria-describedby={complete ? undefined : 'gate-hint'}
              onClick={() => open(current + 1)}
            >
              Next Section
              <ChevronRight size={18} aria-hidden="true" />
            </Button>
          )}
        </div>
      </div>
      {!complete && (
        <div id="gate-hint" className="test__gate">
          <p className="muted">
            Answer every required question in this section to continue.{' '}
            {missing.length === 1
              ? `Question ${missing[0]!.number} still needs an answer.`
              : `Questions ${listOf(missing.map((m) => String(m.number)))} still need an answer.`}
          </p>
          <Button variant="secondary" size="sm" onClick={focusFirstMissing}>
            Go to question {missing[0]?.number}
          </Button>
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        title="Submit your assessment?"
        message={
          <>
            <p>
              {answeredCount} of {assessment.questions.length} answered
              {skippedOptional > 0 &&
                `; ${skippedOptional} optional ${skippedOptional === 1 ? 'question' : 'questions'} skipped`}
              .
            </p>
            <p className="muted">
              Skipped optional questions do not count against your score. You cannot change your answers after
              you submit.
            </p>
          </>
        }
        confirmLabel="Submit now"
        cancelLabel="Keep working"
        onConfirm={() => {
          setConfirming(false);
          void finish();
        }}
        onCancel={() => setConfirming(false)}
      />
    </div>
  );
}
