import { useEffect, useState } from 'react';
import { useLocation, useParams } from 'react-router-dom';
import { Award, CheckCircle2, Download, RotateCcw, Trophy } from 'lucide-react';
import { Badge, Button, ButtonLink, Spinner } from '../../../components/ui';
import { notify } from '../../../lib/toast';
import { CERTIFICATE_FAILED_MESSAGE, downloadCertificate } from '../api/certificate';
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
/** How long a passed result without its certificate link keeps asking for it. */
export const CERTIFICATE_WAIT_MS = 60_000;

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

const awaitsCertificate = (r: StudentResult | undefined) => Boolean(r?.passed && !r.certificateUrl);

/**
 * `/assessment/{inviteToken}/complete` (SPEC §2): the result passed through navigation, else the newest
 * of the student's results. While a submission is still being scored, or a pass waits for its
 * certificate link (for up to a minute), the page asks again every few seconds; a failed fetch is only
 * logged (SPEC §8).
 */
export function CompletePage() {
  const { inviteToken = '' } = useParams();
  const state = (useLocation().state ?? {}) as CompleteState;
  const given = state.result;
  const [found, setFound] = useState(false);
  const [certificateWait, setCertificateWait] = useState<'waiting' | 'over'>('waiting');
  const [watching, setWatching] = useState(awaitsCertificate(given));
  const { data, error } = useGetStudentResultsQuery(inviteToken, {
    skip: Boolean(given) && !watching,
    pollingInterval: !found || watching ? POLL_MS : 0,
    refetchOnMountOrArgChange: true,
  });
  const result = pick(data, given ? { attemptId: given.attemptId } : state.waitFor) ?? given;
  const pending = awaitsCertificate(result);

  useEffect(() => {
    if (result) setFound(true);
  }, [result]);

  useEffect(() => {
    setWatching(pending && certificateWait === 'waiting');
  }, [pending, certificateWait]);

  useEffect(() => {
    if (!pending) return undefined;
    const timer = setTimeout(() => setCertificateWait('over'), CERTIFICATE_WAIT_MS);
    return () => clearTimeout(timer);
  }, [pending]);

  useEffect(() => {
    if (error) console.error('Failed to load results:', error);
  }, [error]);

  return (
    <StudentShell>
      {result ? (
        <ResultView token={inviteToken} result={result} certificateWait={certificateWait} />
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

function ResultView({
  token,
  result,
  certificateWait,
}: {
  token: string;
  result: StudentResult;
  certificateWait: 'waiting' | 'over';
}) {
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
        {passed && <CertificateOffer token={token} url={result.certificateUrl} wait={certificateWait} />}
        {!passed && result.canRetake && (
          <ButtonLink
            to={`/assessment/${encodeURIComponent(token)}`}
            icon={<RotateCcw size={18} aria-hidden="true" />}
          >
            Retake Assessment
          </ButtonLink>
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

/** A pass's certificate: the download once its link is there, else a calm word that it is coming. */
function CertificateOffer({
  token,
  url,
  wait,
}: {
  token: string;
  url: string | null | undefined;
  wait: 'waiting' | 'over';
}) {
  const [busy, setBusy] = useState(false);
  if (!url) {
    return (
      <p className="muted" role="status">
        {wait === 'waiting'
          ? 'Your certificate is being prepared. It will be ready to download here in a moment.'
          : 'Your certificate is still being prepared; it will also be sent to you by e-mail.'}
      </p>
    );
  }
  const download = async () => {
    setBusy(true);
    try {
      await downloadCertificate(token, url);
    } catch (err) {
      console.error('Failed to download certificate:', err);
      notify.error(CERTIFICATE_FAILED_MESSAGE);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button icon={<Download size={18} aria-hidden="true" />} loading={busy} onClick={() => void download()}>
      Download Certificate
    </Button>
  );
}
