import { Clock, ListChecks, Target, PlayCircle } from 'lucide-react';
import { Badge, Button } from '../../../components/ui';
import { formatDay } from '../../../i18n/format';
import type { Translate } from '../../../i18n/i18n';
import { T, useI18n, useT } from '../../../i18n/react';
import type { AssessmentLoad } from '../api/types';
import { useAssessmentContent } from '../hooks/use-assessment-content';
import { questionsPerStudent } from '../paper';
import { BeforeYouStart } from './before-you-start';
import { PracticeQuestionCard } from './practice-question';
import { SectionName } from './section-nav';

/** The student's own time as the server set it (37.5 min is '37 minutes 30 seconds'). */
function duration(t: Translate, seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return rest ? t('welcome.minutesSeconds', { minutes, seconds: rest }) : t('welcome.minutes', { minutes });
}

/** The page's heading and the student it is for; the waiting page keeps it too. */
export function WelcomeIntro({ student }: { student: AssessmentLoad['student'] }) {
  const t = useT();
  return (
    <div className="welcome__intro">
      <h1 className="student__title">{t('app.heading')}</h1>
      <p className="welcome__student">
        <strong>
          <bdi>{student.name}</bdi>
        </strong>{' '}
        <span className="muted">{student.email}</span>
      </p>
    </div>
  );
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
 * SPEC §2 student welcome page: what the assessment is, then the check before the clock starts and the
 * version's practice question, when it offers one, and Start last.
 */
export function WelcomeView({ token, load, offset, starting, onStart }: WelcomeViewProps) {
  const { student, previousAttempt, assessment } = load;
  const extraTime = student.extraTimePercent ?? 0;
  const t = useT();
  const i18n = useI18n();
  const content = useAssessmentContent(assessment);
  const time = duration(t, student.timeLimitSeconds ?? assessment.timeLimit * 60);
  return (
    <div className="welcome stack">
      <WelcomeIntro student={student} />

      {previousAttempt && (
        <section className="card card__body previous-attempt" aria-labelledby="previous-attempt-title">
          <h2 id="previous-attempt-title" className="welcome__heading">
            {t('welcome.previousAttempt')}
          </h2>
          <div className="previous-attempt__row">
            <span className="previous-attempt__score">
              {t('percent', { percentage: previousAttempt.percentage })}
            </span>
            <Badge tone={previousAttempt.passed ? 'success' : 'danger'}>
              {previousAttempt.passed ? t('welcome.passed') : t('welcome.failed')}
            </Badge>
            <span className="muted">
              {t('welcome.completedOn', { date: formatDay(i18n, previousAttempt.completedAt) })}
            </span>
          </div>
          {!previousAttempt.passed && <p>{t('welcome.retake')}</p>}
        </section>
      )}

      <section className="card card__body stack" aria-labelledby="assessment-title">
        <div>
          <h2 id="assessment-title" className="welcome__assessment-title" {...content.mark(content.title)}>
            {content.title.text}
          </h2>
          {content.description.text && (
            <p className="muted welcome__description" {...content.mark(content.description)}>
              {content.description.text}
            </p>
          )}
        </div>
        <dl className="welcome__facts">
          <div className="welcome__fact">
            <Clock size={20} aria-hidden="true" />
            <dt>{t('welcome.timeLimit')}</dt>
            <dd>
              {extraTime > 0 ? (
                <T
                  id="welcome.timeWithExtra"
                  values={{ time, extra: extraTime, minutes: assessment.timeLimit }}
                  components={{ 0: <span className="welcome__fact-note" /> }}
                />
              ) : (
                time
              )}
            </dd>
          </div>
          <div className="welcome__fact">
            <ListChecks size={20} aria-hidden="true" />
            <dt>{t('welcome.questions')}</dt>
            <dd>
              {t('welcome.questionsAcross', {
                questions: questionsPerStudent(assessment),
                sections: assessment.sections.length,
              })}
            </dd>
          </div>
          <div className="welcome__fact">
            <Target size={20} aria-hidden="true" />
            <dt>{t('welcome.passingScore')}</dt>
            <dd>{t('percent', { percentage: assessment.passingScore })}</dd>
          </div>
        </dl>
        <div>
          <h3 className="welcome__heading">{t('welcome.sections')}</h3>
          <ul className="welcome__sections">
            {assessment.sections.map((section) => (
              <li key={section.id}>
                <span>
                  <SectionName section={section} content={content} />
                </span>
                <span className="muted">
                  {t('welcome.sectionQuestions', { count: section.questionCount })}
                </span>
              </li>
            ))}
          </ul>
        </div>
      </section>

      {/* The check and the practice come before Start, in the order a student goes through them:
          on a phone, under Start they were three screens down, where nobody looked before the clock ran. */}
      <BeforeYouStart token={token} offset={offset} />

      {assessment.practiceQuestion && (
        <PracticeQuestionCard practice={assessment.practiceQuestion} content={content} />
      )}

      <StartButton starting={starting} onStart={onStart} />
    </div>
  );
}

/** 'Start Assessment': on the welcome page, and on the waiting page when the student's turn comes. */
export function StartButton({ starting, onStart }: { starting: boolean; onStart: () => void }) {
  const t = useT();
  return (
    <div>
      <Button
        size="lg"
        block
        icon={<PlayCircle size={20} aria-hidden="true" />}
        loading={starting}
        onClick={onStart}
      >
        {t('welcome.start')}
      </Button>
    </div>
  );
}
