import { Clock, ListChecks, Target, PlayCircle } from 'lucide-react';
import { Badge, Button } from '../../../components/ui';
import { formatDate } from '../../../lib/format';
import type { AssessmentLoad } from '../api/types';
import { givenIn, questionsPerStudent } from '../paper';
import { BeforeYouStart } from './before-you-start';
import { PracticeQuestionCard } from './practice-question';

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The student's own time as the server set it (37.5 min is '37 minutes 30 seconds'). */
function duration(seconds: number): string {
  const rest = seconds % 60;
  const minutes = count(Math.floor(seconds / 60), 'minute', 'minutes');
  return rest ? `${minutes} ${count(rest, 'second', 'seconds')}` : minutes;
}

interface WelcomeViewProps {
  token: string;
  load: AssessmentLoad;
  /** How far the server's clock is ahead of this device's, measured when the load arrived. */
  offset: number;
  starting: boolean;
  onStart: () => void;
}

/**
 * SPEC §2 student welcome page, and after it the check before the clock starts (issue 26) and the version's
 * practice question, when it offers one.
 */
export function WelcomeView({ token, load, offset, starting, onStart }: WelcomeViewProps) {
  const { student, previousAttempt, assessment } = load;
  const extraTime = student.extraTimePercent ?? 0;
  return (
    <div className="welcome stack">
      <div className="welcome__intro">
        <h1 className="student__title">Distance Education Readiness Assessment</h1>
        <p className="welcome__student">
          <strong>{student.name}</strong> <span className="muted">{student.email}</span>
        </p>
      </div>

      {previousAttempt && (
        <section className="card card__body previous-attempt" aria-labelledby="previous-attempt-title">
          <h2 id="previous-attempt-title" className="welcome__heading">
            Previous Attempt
          </h2>
          <div className="previous-attempt__row">
            <span className="previous-attempt__score">{previousAttempt.percentage}%</span>
            <Badge tone={previousAttempt.passed ? 'success' : 'danger'}>
              {previousAttempt.passed ? 'Passed' : 'Failed'}
            </Badge>
            <span className="muted">Completed {formatDate(previousAttempt.completedAt)}</span>
          </div>
          {!previousAttempt.passed && <p>You can retake this assessment to improve your score.</p>}
        </section>
      )}

      <section className="card card__body stack" aria-labelledby="assessment-title">
        <div>
          <h2 id="assessment-title" className="welcome__assessment-title">
            {assessment.title}
          </h2>
          {assessment.description && <p className="muted welcome__description">{assessment.description}</p>}
        </div>
        <dl className="welcome__facts">
          <div className="welcome__fact">
            <Clock size={20} aria-hidden="true" />
            <dt>Time Limit</dt>
            <dd>
              {duration(student.timeLimitSeconds ?? assessment.timeLimit * 60)}
              {extraTime > 0 && (
                <span className="welcome__fact-note">
                  {' '}
                  including your {extraTime}% extra time ({count(assessment.timeLimit, 'minute', 'minutes')}{' '}
                  for everyone)
                </span>
              )}
            </dd>
          </div>
          <div className="welcome__fact">
            <ListChecks size={20} aria-hidden="true" />
            <dt>Questions</dt>
            <dd>
              {count(questionsPerStudent(assessment), 'question', 'questions')} across{' '}
              {count(assessment.sections.length, 'section', 'sections')}
            </dd>
          </div>
          <div className="welcome__fact">
            <Target size={20} aria-hidden="true" />
            <dt>Passing Score</dt>
            <dd>{assessment.passingScore}%</dd>
          </div>
        </dl>
        <div>
          <h3 className="welcome__heading">Sections</h3>
          <ul className="welcome__sections">
            {assessment.sections.map((section) => (
              <li key={section.id}>
                <span>
                  Section {section.id}: {section.title}
                </span>
                <span className="muted">{count(givenIn(assessment, section), 'question', 'questions')}</span>
              </li>
            ))}
          </ul>
        </div>
        <Button
          size="lg"
          block
          icon={<PlayCircle size={20} aria-hidden="true" />}
          loading={starting}
          onClick={onStart}
        >
          Start Assessment
        </Button>
      </section>

      <BeforeYouStart token={token} offset={offset} />

      {assessment.practiceQuestion && <PracticeQuestionCard practice={assessment.practiceQuestion} />}
    </div>
  );
}
