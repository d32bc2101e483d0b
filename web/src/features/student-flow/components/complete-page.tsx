import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { useLocation, useParams } from 'react-router-dom';
import { Award, BadgeCheck, CheckCircle2, Download, RotateCcw, Trophy } from 'lucide-react';
import { Badge, Button, ButtonLink, Spinner } from '../../../components/ui';
import { languageDecided } from '../../../i18n/i18n';
import type { Language } from '../../../i18n/languages';
import { LanguageSelect } from '../../../i18n/language-select';
import { useI18n, useLanguage, useT } from '../../../i18n/react';
import type { MessageId } from '../../../i18n/locales/en';
import { pointsToPass } from '../../../lib/bands';
import { KEEP_CLEAR, notify, useToastClearance } from '../../../lib/toast';
import { credentialLink } from '../../../lib/credential-link';
import { downloadCertificate } from '../api/certificate';
import { useGetStudentAssessmentQuery, useGetStudentResultsQuery } from '../api/student-api';
import type { StudentResult } from '../api/types';
import { useStudentLanguage } from '../hooks/use-student-language';
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

/** Where this browser notes that a pass was celebrated: the confetti falls once per attempt, not on every reopen. */
export const celebratedKey = (attemptId: string) => `readiness.celebrated.${attemptId}`;

/**
 * Whether this pass was celebrated in this browser already. One that keeps nothing (private modes may refuse
 * storage) celebrates each time rather than never.
 */
function celebrated(attemptId: string): boolean {
  try {
    return window.localStorage.getItem(celebratedKey(attemptId)) !== null;
  } catch {
    return false;
  }
}

function noteCelebrated(attemptId: string): void {
  try {
    window.localStorage.setItem(celebratedKey(attemptId), new Date().toISOString());
  } catch {
    // Nothing kept: the next visit celebrates again.
  }
}

const NEXT_STEPS: Record<'passed' | 'failed', MessageId[]> = {
  passed: ['complete.nextPassedMail', 'complete.nextPassedContact', 'complete.nextPassedPrepare'],
  failed: ['complete.nextFailedReview', 'complete.nextFailedPractise', 'complete.nextFailedRetake'],
};

/**
 * The student's language on the completion page: the one the test or welcome page made active, or, on a page opened
 * by itself (a reload), the one the server keeps for the student, asked with the assessment's load. A load that
 * fails leaves the page as it is.
 */
function useCompletionLanguage(token: string) {
  const i18n = useI18n();
  const { language } = useLanguage();
  const [known] = useState(() => languageDecided(i18n));
  const { data, isError } = useGetStudentAssessmentQuery(token, { skip: known });
  const served: Language | undefined = known || isError ? language : data?.language;
  return useStudentLanguage(token, served);
}

/**
 * `/assessment/{inviteToken}/complete` (SPEC §2): the result passed through navigation, else the newest
 * of the student's results. While a submission is still being scored, or a pass waits for its
 * certificate link (for up to a minute), the page asks again every few seconds; a failed fetch is only
 * logged (SPEC §8).
 */
export function CompletePage() {
  const { inviteToken = '' } = useParams();
  const t = useT();
  const language = useCompletionLanguage(inviteToken);
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

  // The page opens at its top, whatever was scrolled on the test before it (the Submit button is at the bottom).
  useLayoutEffect(() => {
    window.scrollTo(0, 0);
  }, []);

  // The heading of what the page shows takes the focus (the Submit button that had it is gone), so that a screen
  // reader says it: 'Calculating your result…', then the result's own heading when it arrives.
  const heading = useRef<HTMLHeadingElement>(null);
  const shown = !language.ready ? 'loading' : result ? 'result' : 'calculating';
  useEffect(() => {
    heading.current?.focus({ preventScroll: true });
  }, [shown]);

  // Toasts (the submit's, an 'already completed') start below the heading while it is in view: on a phone they span
  // the top of the screen, where the heading is.
  const page = useRef<HTMLDivElement>(null);
  useToastClearance(page);

  if (!language.ready) {
    return (
      <StudentShell>
        <div className="center-block">
          <Spinner size="lg" label={t('app.loading')} />
        </div>
      </StudentShell>
    );
  }
  return (
    <StudentShell aside={<LanguageSelect onChange={language.choose} />}>
      <div ref={page}>
        {result ? (
          <ResultView
            token={inviteToken}
            result={result}
            certificateWait={certificateWait}
            headingRef={heading}
          />
        ) : (
          <div className="card card__body calculating" role="status">
            <Spinner size="lg" decorative />
            <h1 className="student__title" ref={heading} tabIndex={-1}>
              {t('complete.calculating')}
            </h1>
            <p className="muted">{t('complete.calculatingNote')}</p>
          </div>
        )}
      </div>
    </StudentShell>
  );
}

function ResultView({
  token,
  result,
  certificateWait,
  headingRef,
}: {
  token: string;
  result: StudentResult;
  certificateWait: 'waiting' | 'over';
  headingRef: RefObject<HTMLHeadingElement | null>;
}) {
  const { passed } = result;
  const t = useT();
  // Decided once for the page: the confetti that starts falling finishes, and a reopen has none.
  const [celebrate] = useState(() => passed && !celebrated(result.attemptId));
  useEffect(() => {
    if (celebrate) noteCelebrated(result.attemptId);
  }, [celebrate, result.attemptId]);
  return (
    <div className={`result stack result--${passed ? 'passed' : 'failed'}`}>
      {celebrate && <Confetti />}
      <section className="card card__body result__hero" aria-labelledby="result-title">
        <div className="result__icon" aria-hidden="true">
          {passed ? <Trophy size={48} /> : <Award size={48} />}
        </div>
        <h1 id="result-title" className="student__title" ref={headingRef} tabIndex={-1} {...KEEP_CLEAR}>
          {passed ? t('complete.congratulations') : t('complete.title')}
        </h1>
        {passed ? (
          <>
            <p>{t('complete.passed')}</p>
            <p className="muted">{t('complete.passedNote')}</p>
          </>
        ) : (
          <>
            <p>{t('complete.failed')}</p>
            <p className="muted">{t('complete.failedNote')}</p>
          </>
        )}
        <p className="result__score">{t('percent', { percentage: result.percentage })}</p>
        <p className="muted">{t('complete.points', { score: result.score, total: result.totalPoints })}</p>
        <dl className="result__facts">
          <div>
            {/* The value says 'Attempt #1' (the SPEC's words); its label is for screen readers only, so it is not seen twice. */}
            <dt className="visually-hidden">{t('complete.attempt')}</dt>
            <dd>{t('complete.attemptNumber', { number: result.attemptNumber })}</dd>
          </div>
          {result.assessmentCode && (
            <div>
              <dt>{t('complete.code')}</dt>
              <dd className="result__code">{result.assessmentCode}</dd>
            </div>
          )}
          <div>
            <dt>{t('complete.status')}</dt>
            <dd>
              <Badge tone={passed ? 'success' : 'danger'}>
                {passed ? t('complete.statusPassed') : t('complete.statusFailed')}
              </Badge>
            </dd>
          </div>
        </dl>
        <p className="muted">{t('complete.required', { percentage: result.passingScore })}</p>
        <p className="muted">
          {t('complete.pointsToPass', {
            needed: pointsToPass(result.passingScore, result.totalPoints),
            total: result.totalPoints,
          })}
        </p>
        {passed && (
          <CertificateOffer
            token={token}
            url={result.certificateUrl}
            code={result.assessmentCode}
            wait={certificateWait}
          />
        )}
        {!passed && result.canRetake && (
          <ButtonLink
            to={`/assessment/${encodeURIComponent(token)}`}
            icon={<RotateCcw size={18} aria-hidden="true" />}
          >
            {t('complete.retake')}
          </ButtonLink>
        )}
      </section>
      <section className="card card__body" aria-labelledby="next-title">
        <h2 id="next-title" className="welcome__heading">
          {t('complete.next')}
        </h2>
        <ul className="result__next">
          {NEXT_STEPS[passed ? 'passed' : 'failed'].map((line) => (
            <li key={line}>
              <CheckCircle2 size={18} aria-hidden="true" />
              <span>{t(line)}</span>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

/**
 * A pass's certificate: the download once its link is there, and beside it the same certificate as an Open Badges
 * credential (a public file named by its code), else a calm word that it is coming.
 */
function CertificateOffer({
  token,
  url,
  code,
  wait,
}: {
  token: string;
  url: string | null | undefined;
  code: string | undefined;
  wait: 'waiting' | 'over';
}) {
  const [busy, setBusy] = useState(false);
  const t = useT();
  if (!url) {
    return (
      <p className="muted" role="status">
        {wait === 'waiting' ? t('certificate.preparing') : t('certificate.stillPreparing')}
      </p>
    );
  }
  const download = async () => {
    setBusy(true);
    try {
      await downloadCertificate(token, url);
    } catch (err) {
      console.error('Failed to download certificate:', err);
      notify.error(t('certificate.failed'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="result__downloads">
      <Button icon={<Download size={18} aria-hidden="true" />} loading={busy} onClick={() => void download()}>
        {t('certificate.download')}
      </Button>
      {code && (
        <a className="btn btn--secondary btn--md" href={credentialLink(code)} download>
          <BadgeCheck size={18} aria-hidden="true" />
          <span>{t('certificate.openBadge')}</span>
        </a>
      )}
    </div>
  );
}
