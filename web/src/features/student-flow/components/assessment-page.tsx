import { useEffect, useMemo, useRef, useState } from 'react';
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
import type { CompleteState } from './complete-page';
import { InvalidLinkPage } from './invalid-link-page';
import { StudentShell } from './student-shell';
import { TestScreen } from './test-screen';
import { WelcomeView } from './welcome-view';

interface Running {
  attempt: Attempt;
  /** The attempt's own questions: the page load has none before Start, Start and a reload bring the paper's. */
  assessment: StudentAssessment;
  offset: number;
  fresh: boolean;
}

const errorCode = (error: unknown) =>
  isHttpError(error) ? (error.data as { code?: string } | undefined)?.code : undefined;

/** The link itself does not work (unknown, expired, revoked): not a student assessment missing its version. */
const deadLink = (error: unknown) =>
  isHttpError(error) && error.status === 404 && errorCode(error) !== 'no_assessment';

/**
 * `/assessment/{inviteToken}` (SPEC §2, §4): the welcome page, then the test. An attempt already in
 * progress (a reload, a crash, another device) opens straight into the test with its saved answers and
 * the time really left: the welcome page would only stand between the student and a running clock. Either shows
 * in the student's language, active before the first word. A link that does not work shows its own page
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
  const handled = useRef<unknown>(null);
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

  const onStart = async () => {
    try {
      const answer = await start(inviteToken).unwrap();
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
        notify.info(t('load.alreadyCompleted'));
        void navigate(complete, { replace: true, state: {} satisfies CompleteState });
      } else if (code === 'awaiting_result') {
        void navigate(complete, { replace: true, state: { waitFor: {} } satisfies CompleteState });
      } else {
        notify.error(t('start.failed'));
      }
    }
  };

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

  const welcome = data && language.ready && !data.alreadyCompleted && !data.awaitingResult && !data.attempt;
  return (
    <StudentShell aside={welcome ? <LanguageSelect onChange={language.choose} /> : undefined}>
      {welcome ? (
        <WelcomeView
          token={inviteToken}
          load={data}
          offset={clockOffset(data.serverNow, data.receivedAt)}
          starting={starting}
          onStart={() => void onStart()}
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
