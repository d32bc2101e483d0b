import { useEffect, useMemo, useRef, useState } from 'react';
import type { Language } from '../../../i18n/languages';
import { useT } from '../../../i18n/react';
import { useToastClearance } from '../../../lib/toast';
import type { AssessmentLoad, Attempt } from '../api/types';
import { useAssessmentContent } from '../hooks/use-assessment-content';
import { useAttemptActivity } from '../hooks/use-attempt-activity';
import { useAttemptAnswers } from '../hooks/use-attempt-answers';
import { useAttemptEvents } from '../hooks/use-attempt-events';
import { useCountdown } from '../hooks/use-countdown';
import { useFinishAttempt } from '../hooks/use-finish-attempt';
import {
  isAnswered,
  progressPercent,
  questionsOf,
  reachable,
  resumeSectionIndex,
  sectionComplete,
} from '../progress';
import { QuestionCard } from './question-card';
import { SectionNav } from './section-nav';
import { focusQuestion, SectionGate, SubmitSummary, TestFooter, type SkippedQuestion } from './test-footer';
import { TestHeader } from './test-header';
import { attemptAssessment } from '../paper';

interface TestScreenProps {
  token: string;
  load: AssessmentLoad;
  attempt: Attempt;
  /** The server's clock minus this device's, in milliseconds. */
  offset: number;
  /** True right after Start: section 1 opens; a resumed attempt opens where the student left off. */
  fresh: boolean;
  /** An administrator gave more time: the attempt's new deadline, and the clock offset measured with it. */
  onExtended(deadlineAt: string, offset: number): void;
  /** The student switched language: everything on the screen stays as it is, in the other language. */
  onLanguage(language: Language): Promise<void>;
}

export function TestScreen({ token, load, attempt, offset, fresh, onExtended, onLanguage }: TestScreenProps) {
  const { student } = load;
  const t = useT();
  // This attempt's own questions and order (a draw, shuffling), fixed when it started.
  const assessment = useMemo(
    () => attemptAssessment(load.assessment, attempt.paper),
    [load.assessment, attempt.paper],
  );
  // Its words in the page's language: a switch of language changes them and nothing else.
  const content = useAssessmentContent(load.assessment);
  const { initialAnswers, answers, files, uploaded, saveStatus, saver, setAnswer, setFile } =
    useAttemptAnswers(token, attempt);
  const [current, setCurrent] = useState(() =>
    fresh
      ? 0
      : resumeSectionIndex(assessment, initialAnswers, new Set(attempt.files.map((f) => f.questionId))),
  );
  const timeLeftMs = useCountdown(attempt.deadlineAt, offset);
  const timeUp = timeLeftMs <= 0;
  const activity = useAttemptActivity(token, attempt.id, offset, assessment.sections[current]?.id);
  const { finish, submitting, endedElsewhere } = useFinishAttempt({
    token,
    attempt,
    offset,
    answers,
    files,
    saver,
    timeUp,
    flushActivity: activity.flush,
  });
  useAttemptEvents(token, attempt, { onExtended, onClosed: endedElsewhere });
  const titleRef = useRef<HTMLHeadingElement>(null);
  const screenRef = useRef<HTMLDivElement>(null);
  useToastClearance(screenRef);
  // A question the summary sent the student back to: focused once its section is on the screen.
  const [goingTo, setGoingTo] = useState<string | null>(null);

  // Focus follows navigation to the section's title, so a screen reader starts reading there; on the
  // first render too, since the Start button that had the focus is gone.
  useEffect(() => {
    titleRef.current?.focus();
  }, [current]);

  // After the section's title, so that the question keeps the focus when its section was opened with it.
  useEffect(() => {
    if (goingTo === null) return;
    focusQuestion(goingTo);
    setGoingTo(null);
  }, [goingTo, current]);

  const section = assessment.sections[current]!;
  const sectionTexts = content.section(section);
  const complete = sectionComplete(assessment, section.id, answers, uploaded);
  const missing = questionsOf(assessment, section.id)
    .map((q, index) => ({ q, id: q.id, number: index + 1 }))
    .filter(({ q }) => q.required && !isAnswered(q, answers, uploaded));
  const answeredCount = assessment.questions.filter((q) => isAnswered(q, answers, uploaded)).length;
  const skippedOptional = assessment.questions.filter(
    (q) => !q.required && !isAnswered(q, answers, uploaded),
  ).length;
  // Every question left unanswered, numbered as its card is (within its section), in the paper's order.
  const unanswered: SkippedQuestion[] = assessment.sections.flatMap((s) =>
    questionsOf(assessment, s.id).flatMap((q, index) =>
      isAnswered(q, answers, uploaded) ? [] : [{ id: q.id, section: s.id, number: index + 1 }],
    ),
  );
  const [confirming, setConfirming] = useState(false);
  const askToSubmit = () => {
    // A summary first when something is left unanswered; at time-up the attempt is sent as it stands.
    if (!timeUp && answeredCount < assessment.questions.length) setConfirming(true);
    else void finish();
  };
  const open = (index: number) => {
    if (index === current) return;
    if (index > current && !reachable(assessment, index, answers, uploaded)) return;
    setCurrent(index);
  };

  return (
    <div className="test" ref={screenRef}>
      {/* The page's own title, as on the welcome page, set small: the timer and the section below are what matter. */}
      <h1 className="test__heading">{t('app.heading')}</h1>
      <TestHeader
        name={student.name}
        progress={progressPercent(assessment, answers, uploaded)}
        timeLeftMs={timeLeftMs}
        saveStatus={saveStatus}
        onLanguage={onLanguage}
      />
      <SectionNav
        sections={assessment.sections}
        content={content}
        current={current}
        canOpen={(index) => index < current || reachable(assessment, index, answers, uploaded)}
        onOpen={open}
      />
      <section className="test__section" aria-labelledby="section-title">
        <h2
          id="section-title"
          className="test__section-title"
          ref={titleRef}
          tabIndex={-1}
          {...content.mark(sectionTexts.title)}
        >
          {sectionTexts.title.text}
        </h2>
        {sectionTexts.description.text && (
          <p className="muted" {...content.mark(sectionTexts.description)}>
            {sectionTexts.description.text}
          </p>
        )}
      </section>
      <div className="test__questions">
        {questionsOf(assessment, section.id).map((question, index) => (
          <QuestionCard
            key={question.id}
            number={index + 1}
            question={question}
            content={content}
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
      <TestFooter
        current={current}
        sections={assessment.sections.length}
        complete={complete}
        isLast={current === assessment.sections.length - 1}
        timeUp={timeUp}
        submitting={submitting}
        onOpen={open}
        onSubmit={askToSubmit}
      />
      {!complete && <SectionGate missing={missing} />}
      <SubmitSummary
        open={confirming}
        answered={answeredCount}
        total={assessment.questions.length}
        skippedOptional={skippedOptional}
        unanswered={unanswered}
        onGoTo={(question) => {
          setConfirming(false);
          setCurrent(assessment.sections.findIndex((s) => s.id === question.section));
          setGoingTo(question.id);
        }}
        onConfirm={() => {
          setConfirming(false);
          void finish();
        }}
        onCancel={() => setConfirming(false)}
      />
    </div>
  );
}
