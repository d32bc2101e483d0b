import { useEffect, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router-dom';
import { Award, CheckCircle2, RotateCcw, Trophy } from 'lucide-react';
import { Badge, Spinner } from '../../../components/ui';
import { useGetStudentResultsQuery } from '../api/student-api';
import type { StudentResult } from '../api/types';
import { Confetti } from './confetti';
import { StudentShell } from './student-shell';

/**
 * What the test hands to the completion page: the result when the server answered with it, else what
 * to wait for — the attempt just submitted (202, being scored), or any result newer than `after`.
 */
export interface CompleteState {
  result?: StudentResult;
  waitFor?: { attemptId?: string; after?: string | null };
}

const POLL_MS = 2000;

function pick(
  results: StudentResult[] | undefined,
  waitFor: CompleteState['waitFor'],
): StudentResult | undefined {
  if (!results) return undefined;
  if (waitFor?.attemptId) return results.find((r) => r.attemptId === waitFor.attemptId);
  const newest = results[0];
  if (waitFor && 'after' in waitFor && newest && newest.completedAt === waitFor.after) return undefined;
  return newest;
}

/**
 * `/assessment/{inviteToken}/complete` (SPEC §2): the result passed through navigation, else the newest
 * of the student's results. While a submission is still being scored the page asks again every few
 * seconds; a failed fetch is only logged (SPEC §8).
 */
export function CompletePage() {
  const { inviteToken = '' } = useParams();
  const state = (useLocation().state ?? {}) as CompleteState;
  const given = state.result;
  const [found, setFound] = useState(false);
  const { data, error } = useGetStudentResultsQuery(inviteToken, {
    skip: Boolean(given),
    pollingInterval: found ? 0 : POLL_MS,
    refetchOnMountOrArgChange: true,
  });
  const result = given ?? pick(data, state.waitFor);

  useEffect(() => {
    if (result) setFound(true);
  }, [result]);

  useEffect(() => {
    if (error) console.error('Failed to load results:', error);
  }, [error]);

  return (
    <StudentShell>
      {result ? (
        <ResultView token={inviteToken} result={result} />
      ) : (
        <div className="card card__body calculating" role="status">
          <Spinner size="lg" decorative />
          <h1 className="student__title">Calculating your result…</h1>
          <p className="muted">
            Your answers are safely submitted. This usually takes a few seconds; the page will update by
            itself.
          </p>
        </div>
      )}
    </StudentShell>
  );
}

function ResultView({ token, result }: { token: string; result: StudentResult }) {
  const { passed } = result;
  return (
    <div className={`result stack result--${passed ? 'passed' : 'failed'}`}>
      {passed && <Confetti />}
      <section className="card card__body result__hero" aria-labelledby="result-title">
        <div className="result__icon" aria-hidden="true">
          {passed ? <Trophy size={48} /> : <Award size={48} />}
        </div>
        <h1 id="result-title" className="student__title">
          {passed ? 'Congratulations!' : 'Assessment Complete'}
        </h1>
        {passed ? (
          <>
            <p>You have successfully passed the Distance Education Readiness Assessment</p>
            <p className="muted">You are ready to begin your distance education journey with us.</p>
          </>
        ) : (
          <>
            <p>You did not meet the passing requirements this time</p>
            <p className="muted">
              {"Don't worry! You can retake the assessment immediately to improve your score."}
            </p>
          </>
        )}
        <p className="result__score">{result.percentage}%</p>
        <p className="muted">
          {result.score} / {result.totalPoints} points
        </p>
        <dl className="result__facts">
          <div>
            <dt>Attempt</dt>
            <dd>Attempt #{result.attemptNumber}</dd>
          </div>
          {result.assessmentCode && (
            <div>
              <dt>Assessment Code</dt>
              <dd className="result__code">{result.assessmentCode}</dd>
            </div>
          )}
          <div>
            <dt>Status</dt>
            <dd>
              <Badge tone={passed ? 'success' : 'danger'}>{passed ? 'PASSED' : 'FAILED'}</Badge>
            </dd>
          </div>
        </dl>
        <p className="muted">Required: {result.passingScore}% to pass</p>
        {!passed && result.canRetake && (
          <Link to={`/assessment/${encodeURIComponent(token)}`} className="btn btn--primary btn--md">
            <RotateCcw size={18} aria-hidden="true" />
            <span>Retake Assessment</span>
          </Link>
        )}
      </section>
      <section className="card card__body" aria-labelledby="next-title">
        <h2 id="next-title" className="welcome__heading">
          {"What's Next?"}
        </h2>
        <ul className="result__next">
          {(passed
            ? [
                'You will receive a confirmation e-mail with your results.',
                'Our admissions team will contact you about the next steps.',
                'Prepare for your distance education journey.',
              ]
            : [
                'Review the areas where you scored lower.',
                'Practise your computer skills and technical knowledge.',
                'Retake the assessment when you are ready.',
              ]
          ).map((line) => (
            <li key={line}>
              <CheckCircle2 size={18} aria-hidden="true" />
              <span>{line}</span>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
