import { useEffect, type ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import {
  ArrowLeft,
  Award,
  CheckCircle2,
  FileDown,
  Mail,
  MinusCircle,
  Paperclip,
  SearchX,
  XCircle,
} from 'lucide-react';
import {
  Badge,
  bandTone,
  Button,
  ButtonLink,
  Card,
  EmptyState,
  FullPageSpinner,
} from '../../../components/ui';
import { bandOf, pointsToPass } from '../../../lib/bands';
import { formatDateTime, formatPercentage } from '../../../lib/format';
import { useScrollToTop } from '../../../lib/hooks';
import { notifyFailure } from '../../../lib/toast';
import { AdminT, adminT, useAdminT } from '../../../i18n/admin/admin-i18n';
import { byQuestionId, useGetResultQuery } from '../api/results-api';
import type { AnswerResult, ResultDetail, VersionQuestion } from '../api/types';
import { useFileDownload } from '../../../lib/file-download';
import { useResultActions } from './result-actions';
import { useResultsListPath } from '../hooks/results-list-path';
import { ResultTimeline } from './result-timeline';
import { LmsGradeCard } from './lms-grade-card';

function BackToResults() {
  const t = useAdminT();
  const resultsList = useResultsListPath();
  return (
    <ButtonLink to={resultsList} variant="secondary" icon={<ArrowLeft size={18} aria-hidden="true" />}>
      {t('results.detail.back')}
    </ButtonLink>
  );
}

function Facts({ items }: { items: [string, ReactNode][] }) {
  return (
    <dl className="facts">
      {items.map(([term, value]) => (
        <div key={term} className="facts__item">
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Bar({ percentage }: { percentage: number }) {
  return (
    <span className={`bar bar--${bandOf(percentage)}`} aria-hidden="true">
      <span className="bar__fill" style={{ width: `${Math.max(0, Math.min(100, percentage))}%` }} />
    </span>
  );
}

function Overview({ result }: { result: ResultDetail }) {
  const t = useAdminT();
  const band = bandOf(result.percentage);
  return (
    <Card title={t('results.detail.overview')}>
      <div className="overview">
        <div className={`overview__score score--${band}`}>
          <span className="overview__percent">{formatPercentage(result.percentage)}</span>
          <span className="visually-hidden">{t('results.detail.overallScore')}</span>
        </div>
        <div className="overview__facts">
          <p>
            <Badge tone={result.passed ? 'success' : 'danger'}>
              {result.passed ? t('results.detail.passed') : t('results.detail.failed')}
            </Badge>
          </p>
          <Facts
            items={[
              [t('results.detail.performanceLevel'), result.performanceLevel],
              [
                t('results.detail.score'),
                t('results.detail.scoreValue', { score: result.score, total: result.totalPoints }),
              ],
              [t('results.detail.passingScore'), `${result.passingScore}%`],
              [
                t('results.detail.pointsToPass'),
                t('results.detail.scoreValue', {
                  score: pointsToPass(result.passingScore, result.totalPoints),
                  total: result.totalPoints,
                }),
              ],
              [t('results.detail.attempt'), String(result.attemptNumber)],
              ...(typeof result.timeSpent === 'number'
                ? [
                    [
                      t('results.detail.timeSpent'),
                      t('results.detail.timeSpentValue', { minutes: result.timeSpent }),
                    ] as [string, string],
                  ]
                : []),
            ]}
          />
        </div>
      </div>
    </Card>
  );
}

function SectionPerformance({ result }: { result: ResultDetail }) {
  const t = useAdminT();
  if (result.sections.length === 0) return null;
  return (
    <Card title={t('results.detail.sections')}>
      <ul className="section-results">
        {result.sections.map((s) => (
          <li key={String(s.id)} className="section-results__item">
            <div className="section-results__head">
              <div>
                <h3 className="section-results__title">{s.title}</h3>
                {s.description && <p className="muted">{s.description}</p>}
              </div>
              <div className="section-results__figures">
                <Badge tone={bandTone[bandOf(s.percentage)]}>{formatPercentage(s.percentage)}</Badge>
                <span className="section-results__level">{s.performanceLevel}</span>
              </div>
            </div>
            <Bar percentage={s.percentage} />
            {/* Points and questions are different measures (the percentage is of points): each is named, as in the PDF. */}
            <dl className="section-results__counts">
              <div>
                <dt>{t('results.detail.sectionScore')}</dt>
                <dd>{t('results.detail.scoreValue', { score: s.score, total: s.totalPoints })}</dd>
              </div>
              <div>
                <dt>{t('results.detail.sectionQuestions')}</dt>
                <dd>{t('results.detail.sectionCorrect', { correct: s.correct, questions: s.questions })}</dd>
              </div>
            </dl>
          </li>
        ))}
      </ul>
    </Card>
  );
}

/** What the right answer reads as, from the version the student took. */
function correctAnswerText(question: VersionQuestion | undefined): string | undefined {
  if (!question?.correctAnswer || question.type === 'file_upload') return undefined;
  if (question.type === 'yes_no')
    return question.correctAnswer === 'yes' ? adminT('results.detail.yes') : adminT('results.detail.no');
  return question.options?.find((o) => o.id === question.correctAnswer)?.text ?? question.correctAnswer;
}

function AnswerFileLink({ answer }: { answer: AnswerResult }) {
  const t = useAdminT();
  const file = useFileDownload();
  if (!answer.file) return null;
  const { originalName, url } = answer.file;
  const save = async () => {
    try {
      await file.download(url, originalName);
    } catch (err) {
      notifyFailure(err, adminT('results.detail.fileFailed'), { serverMessage: false });
    }
  };
  return (
    <Button
      variant="ghost"
      size="sm"
      className="file-link"
      icon={<Paperclip size={16} aria-hidden="true" />}
      loading={file.busy}
      onClick={save}
      aria-label={t('results.detail.downloadFile', { name: originalName })}
    >
      {originalName}
    </Button>
  );
}

/**
 * The question's number in its version, the one the item analysis and the editor show, with its place on the
 * attempt's own paper beside it where that differs ("Q5 — 4th on this paper").
 */
function QuestionNumber({ answer }: { answer: AnswerResult }) {
  const t = useAdminT();
  const { number, paperPosition: position } = answer;
  // A result whose version is not known here has no number of its own: its place on the paper, if kept.
  if (number === null) return position === null ? null : t('results.detail.onPaper', { position });
  return position !== null && position !== number
    ? t('results.detail.questionOnPaper', { number, position })
    : t('results.detail.questionNumber', { number });
}

function QuestionResults({ result }: { result: ResultDetail }) {
  const t = useAdminT();
  const questions = new Map(
    (result.assessmentVersion?.sections ?? []).flatMap((s) => s.questions.map((q) => [q.id, q] as const)),
  );
  const sectionTitles = new Map(result.sections.map((s) => [String(s.id), s.title]));
  // The version's order, as the version numbers its questions (by id for a version not known).
  const answers = [...result.answers].sort(
    (a, b) => (a.number ?? Infinity) - (b.number ?? Infinity) || byQuestionId(a, b),
  );
  return (
    <Card title={t('results.detail.questions')}>
      <ol className="question-results">
        {answers.map((a) => {
          const question = questions.get(a.questionId);
          const right = a.isCorrect || a.skipped ? undefined : correctAnswerText(question);
          const section = a.section === undefined ? undefined : sectionTitles.get(String(a.section));
          const outcome = a.skipped ? 'skipped' : a.isCorrect ? 'correct' : 'incorrect';
          return (
            <li key={a.questionId} className={`question-results__item question-results__item--${outcome}`}>
              <div className="question-results__head">
                <span className="question-results__number">
                  <QuestionNumber answer={a} />
                </span>
                <Badge tone={a.skipped ? 'neutral' : a.isCorrect ? 'success' : 'danger'}>
                  {a.skipped ? (
                    <MinusCircle size={14} aria-hidden="true" />
                  ) : a.isCorrect ? (
                    <CheckCircle2 size={14} aria-hidden="true" />
                  ) : (
                    <XCircle size={14} aria-hidden="true" />
                  )}
                  {a.skipped
                    ? t('results.detail.skipped')
                    : a.isCorrect
                      ? t('results.detail.correct')
                      : t('results.detail.incorrect')}
                </Badge>
                <span className="question-results__points">
                  {a.skipped ? (
                    <span className="muted">{t('results.detail.notCounted')}</span>
                  ) : a.maxPoints !== undefined ? (
                    <AdminT
                      id={'results.detail.pointsOf'}
                      values={{ points: a.points, max: a.maxPoints }}
                      components={{ 0: <span className="muted" /> }}
                    />
                  ) : (
                    t('results.detail.points', { points: a.points })
                  )}
                </span>
              </div>
              <p className="question-results__text">{a.question || question?.question || a.questionId}</p>
              {section && <p className="muted question-results__section">{section}</p>}
              <p className="question-results__answer">
                <span className="muted">{t('results.detail.answer')} </span>
                {a.file ? (
                  <AnswerFileLink answer={a} />
                ) : (
                  a.answerText || a.answer || <span className="muted">{t('results.detail.notAnswered')}</span>
                )}
              </p>
              {right && (
                <p className="question-results__answer">
                  <span className="muted">{t('results.detail.correctAnswer')} </span>
                  {right}
                </p>
              )}
            </li>
          );
        })}
      </ol>
    </Card>
  );
}

export function ResultDetailPage() {
  const t = useAdminT();
  const { resultId = '' } = useParams();
  const navigate = useNavigate();
  const resultsList = useResultsListPath();
  const { data: result, isLoading, error } = useGetResultQuery(resultId);
  useScrollToTop(resultId);
  const actions = useResultActions({ onDeleted: () => navigate(resultsList) });

  useEffect(() => {
    if (!error) return;
    notifyFailure(error, adminT('results.detail.loadFailed'), { serverMessage: false });
    navigate(resultsList, { replace: true });
  }, [error, navigate, resultsList]);

  if (isLoading) return <FullPageSpinner label={t('results.detail.loading')} />;
  if (!result) {
    return (
      <div className="stack">
        <div>
          <BackToResults />
        </div>
        <Card>
          <EmptyState icon={<SearchX size={28} />} title={t('results.detail.notFound')} />
        </Card>
      </div>
    );
  }

  return (
    <div className="stack">
      <div className="detail-actions">
        <BackToResults />
        <div className="row-actions">
          <Button
            variant="secondary"
            icon={<FileDown size={18} aria-hidden="true" />}
            loading={actions.preparingReport}
            onClick={() => void actions.downloadReport(result)}
          >
            {actions.preparingReport ? t('results.detail.preparingPdf') : t('results.detail.downloadPdf')}
          </Button>
          {result.passed && (
            <>
              <Button
                icon={<Award size={18} aria-hidden="true" />}
                loading={actions.preparingCertificate}
                onClick={() => void actions.downloadCertificate(result)}
              >
                {t('results.detail.downloadCertificate')}
              </Button>
              <Button
                variant="secondary"
                icon={<Mail size={18} aria-hidden="true" />}
                onClick={() => actions.ask('resend', result)}
              >
                {t('results.detail.resendCertificate')}
              </Button>
            </>
          )}
        </div>
      </div>

      <div className="detail-grid">
        <Card title={t('results.detail.student')}>
          <Facts
            items={[
              [t('results.detail.name'), <bdi key="name">{result.student.name}</bdi>],
              [t('results.detail.email'), result.student.email],
              [t('results.detail.completed'), formatDateTime(result.completedAt)],
              [t('results.detail.code'), result.assessmentCode || t('results.detail.noCode')],
            ]}
          />
        </Card>
        <Overview result={result} />
      </div>
      <LmsGradeCard resultId={result._id} />
      <SectionPerformance result={result} />
      <QuestionResults result={result} />
      <ResultTimeline result={result} />
      {actions.dialogs}
    </div>
  );
}
