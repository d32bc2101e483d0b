import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { Button, Spinner } from '../../../components/ui';
import { isHttpError } from '../../../lib/errors';
import { LanguageSelect } from '../../../i18n/language-select';
import { useT } from '../../../i18n/react';
import { notify } from '../../../lib/toast';
import { useGetStudentAssessmentQuery, useStartAssessmentMutation } from '../api/student-api';
import type { Attempt, StudentAssessment } from '../api/types';
import { clockOffset } from '../clock';
import { useStudentLanguage } from '../hooks/use-student-language';
import { forgetWaiting, rememberWaiting, wasWaiting, type LineFigures } from '../waiting-room';
import type { CompleteState } from './complete-page';
import { InvalidLinkPage } from './invalid-link-page';
import { StudentShell } from './student-shell';
import { TestScreen } from './test-screen';
import { WaitingView, YourTurnView } from './waiting-view';
import { WelcomeView } from './welcome-view';

interface Running {
  attempt: Attempt;
  /** The attempt's own questions: the page load has none before Start, Start and a reload bring the paper's. */
  assessment: StudentAssessment;
  offset: number;
  fresh: boolean;
}

/** In line to start: the ticket, the line as Start last described it, and whether the turn came while away. */
interface Queue {
  ticket: number;
  line: LineFigures;
  turn: boolean;
}

/** Why Start is called: the student pressed it, their turn came while the page was seen, or a reload in line. */
type StartCause = 'press' | 'admitted' | 'resume';

const errorCode = (error: unknown) =>
  isHttpError(error) ? (error.data as { code?: string } | undefined)?.code : undefined;

/** The link itself does not work (unknown, expired, revoked): not a student assessment missing its version. */
const deadLink = (error: unknown) =>
  isHttpError(error) && error.status === 404 && errorCode(error) !== 'no_assessment';

/**
 * `/assessment/{inviteToken}` (SPEC §2, §4): the welcome page, then the test. An attempt already in
 * progress (a reload, a crash, another device) opens straight into the test with its saved answers and
 * the time really left: the welcome page would only stand between the student and a running clock. At the peak, Start
 * may answer that the student is in line (202): the page shows their place, without a clock, until their turn.
 * Each shows in the student's language, active before the first word. A link that does not work shows its own page
 * here, in the visitor's language: SPEC §4's redirect to `/` is the admin portal's only.
 */
export function AssessmentPage() {
  const { inviteToken = '' } = useParams();
  const navigate = useNavigate();
  const { data, error, isError, refetch, isFetching } = useGetStudentAssessmentQuery(inviteToken, {
    refetchOnMountOrArgChange: true,
  });
  const [start, { isLoading: starting }] = useStartAssessmentMutation();
  const t = useT();
  const language = useStudentLanguage(inviteToken, data?.language);
  const [running, setRunning] = useState<Running | null>(null);
  const [queue, setQueue] = useState<Queue | null>(null);
  const handled = useRef<unknown>(null);
  const calling = useRef(false);
  const resumed = useRef(false);
  const complete = `/assessment/${encodeURIComponent(inviteToken)}/complete`;

  useEffect(() => {
    if (!data || !language.ready || handled.current === data) return;
    handled.current = data;
    if (data.alreadyCompleted) {
      notify.info(t('load.alreadyCompleted'));
      const state: CompleteState = data.result ? { result: data.result } : {};
      void navigate(complete, { replace: true, state });
    } else if (data.awaitingResult) {
      const state: CompleteState = { waitFor: { after: data.previousAttempt?.completedAt ?? null } };
      void navigate(complete, { replace: true, state });
    } else if (data.attempt) {
      setRunning({
        attempt: data.attempt,
        assessment: data.assessment,
        offset: clockOffset(data.serverNow, data.receivedAt),
        fresh: false,
      });
    }
  }, [data, language.ready, navigate, complete, t]);

  useEffect(() => {
    if (!isError || handled.current === error) return;
    handled.current = error;
    // A dead link has a page of its own, in the visitor's language, not a toast on the way to
    // the admin portal's `/`.
    if (deadLink(error)) return;
    notify.error(t('load.failed'));
  }, [isError, error, t]);

  // The test reads the attempt's own questions, whichever answer brought them (the page load or Start).
  const testLoad = useMemo(
    () => data && running && { ...data, assessment: running.assessment },
    [data, running],
  );

  const onStart = useCallback(
    async (cause: StartCause) => {
      // A poll and the tab coming back may both find the turn: one Start at a time.
      if (calling.current) return;
      calling.current = true;
      try {
        const answer = await start(inviteToken).unwrap();
        if ('waiting' in answer) {
          // In line: no attempt, no clock; the same token keeps this ticket, a reload included.
          rememberWaiting(inviteToken, answer.waiting.ticket);
          setQueue({
            ticket: answer.waiting.ticket,
            line: {
              serving: answer.line.serving,
              perMinute: answer.line.perMinute,
              receivedAt: answer.receivedAt,
            },
            turn: false,
          });
          if (cause === 'press') window.scrollTo(0, 0);
          return;
        }
        forgetWaiting(inviteToken);
        setQueue(null);
        setRunning({
          attempt: answer.attempt,
          assessment: answer.assessment,
          offset: clockOffset(answer.serverNow, answer.receivedAt),
          fresh: true,
        });
        window.scrollTo(0, 0);
        notify.success(t('start.started'));
      } catch (e) {
        const code = errorCode(e);
        if (code === 'already_completed') {
          forgetWaiting(inviteToken);
          notify.info(t('load.alreadyCompleted'));
          void navigate(complete, { replace: true, state: {} satisfies CompleteState });
        } else if (code === 'awaiting_result') {
          forgetWaiting(inviteToken);
          void navigate(complete, { replace: true, state: { waitFor: {} } satisfies CompleteState });
        } else if (cause !== 'admitted') {
          // A turn that failed to start is found again by the next poll, which tries again.
          notify.error(t('start.failed'));
        }
      } finally {
        calling.current = false;
      }
    },
    [start, inviteToken, navigate, complete, t],
  );

  // The turn came: a page in sight starts by itself; a hidden one waits for the student to come back and press Start.
  const onAdmitted = useCallback(() => {
    if (document.visibilityState === 'visible') void onStart('admitted');
    else setQueue((before) => before && { ...before, turn: true });
  }, [onStart]);

  const welcome = Boolean(
    data && language.ready && !data.alreadyCompleted && !data.awaitingResult && !data.attempt,
  );

  // A reload while in line asks Start again, which answers with the same ticket; never in a hidden tab, where an
  // admitted ticket would start a clock nobody sees.
  useEffect(() => {
    if (!welcome || resumed.current || !wasWaiting(inviteToken)) return;
    const resume = () => {
      if (document.visibilityState !== 'visible' || resumed.current) return;
      resumed.current = true;
      void onStart('resume');
    };
    resume();
    document.addEventListener('visibilitychange', resume);
    return () => document.removeEventListener('visibilitychange', resume);
  }, [welcome, inviteToken, onStart]);

  if (testLoad && running) {
    return (
      <StudentShell wide>
        <TestScreen
          token={inviteToken}
          load={testLoad}
          attempt={running.attempt}
          offset={running.offset}
          fresh={running.fresh}
          onLanguage={language.choose}
          onExtended={(deadlineAt, offset) =>
            setRunning(
              (before) => before && { ...before, attempt: { ...before.attempt, deadlineAt }, offset },
            )
          }
        />
      </StudentShell>
    );
  }

  if (isError && !isFetching && deadLink(error)) return <InvalidLinkPage />;

  return (
    <StudentShell aside={welcome ? <LanguageSelect onChange={language.choose} /> : undefined}>
      {welcome && data && queue?.turn ? (
        <YourTurnView load={data} starting={starting} onStart={() => void onStart('press')} />
      ) : welcome && data && queue ? (
        <WaitingView load={data} ticket={queue.ticket} line={queue.line} onAdmitted={onAdmitted} />
      ) : welcome && data ? (
        <WelcomeView
          token={inviteToken}
          load={data}
          offset={clockOffset(data.serverNow, data.receivedAt)}
          starting={starting}
          onStart={() => void onStart('press')}
        />
      ) : isError && !isFetching ? (
        <div className="card card__body stack" role="alert">
          <h1 className="student__title">{t('app.heading')}</h1>
          <p>{t('load.failed')}</p>
          <div>
            <Button onClick={() => void refetch()}>{t('app.tryAgain')}</Button>
          </div>
        </div>
      ) : (
        <div className="center-block">
          <Spinner size="lg" label={t('app.loading')} />
        </div>
      )}
    </StudentShell>
  );
}
