import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useT } from '../../../i18n/react';
import { notify } from '../../../lib/toast';
import { useSubmitAssessmentMutation } from '../api/student-api';
import type { Attempt, UploadedFile } from '../api/types';
import { ACTIVITY_SUBMIT_WAIT_MS, settleWithin } from '../activity';
import { forgetAnswers, type AnswerSaver } from '../autosave';
import type { CompleteState } from '../components/complete-page';
import type { AnswerMap } from '../progress';
import { toList } from './use-attempt-answers';

/**
 * Submits the attempt once (a second call while one is in flight does nothing), then opens the completion page
 * with the result or the wait for it. At time-up (SPEC §4) the attempt is submitted by itself; time added after
 * that (the submit failed, the student goes on) makes the next time-up submit again. An attempt the server ended
 * (`endedElsewhere`) opens the completion page to wait for its result, unless this page's own submit does.
 * What the page saw of the attempt for its timeline (`flushActivity`) is reported first: the submit waits for it
 * ACTIVITY_SUBMIT_WAIT_MS at most, and goes whatever became of it.
 */
export function useFinishAttempt(input: {
  token: string;
  attempt: Attempt;
  offset: number;
  answers: AnswerMap;
  files: Map<string, UploadedFile>;
  saver: AnswerSaver;
  timeUp: boolean;
  flushActivity?: () => Promise<void>;
}) {
  const { token, attempt, offset, answers, files, saver, timeUp, flushActivity } = input;
  const navigate = useNavigate();
  const t = useT();
  const [submit, { isLoading }] = useSubmitAssessmentMutation();
  // The moment before the submit itself, while the last activity report goes, counts as submitting already.
  const [reporting, setReporting] = useState(false);
  const submitting = reporting || isLoading;
  const submittingRef = useRef(false);
  const endedRef = useRef(false);
  const complete = `/assessment/${encodeURIComponent(token)}/complete`;

  // The answers the server saved are the ones scored; those it did not get stay kept on this device.
  const leaveEnded = useCallback(() => {
    saver.stop();
    notify.info(t('test.ended'));
    const state: CompleteState = { waitFor: { attemptId: attempt.id } };
    void navigate(complete, { replace: true, state });
  }, [saver, attempt.id, navigate, complete, t]);

  const finish = useCallback(async () => {
    if (submittingRef.current) return;
    submittingRef.current = true;
    if (flushActivity) {
      setReporting(true);
      await settleWithin(Promise.resolve().then(flushActivity), ACTIVITY_SUBMIT_WAIT_MS);
      setReporting(false);
    }
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
      notify.success(t('test.submitted'));
      const state: CompleteState =
        'result' in outcome ? { result: outcome.result } : { waitFor: { attemptId: outcome.attemptId } };
      await navigate(complete, { state });
    } catch {
      if (endedRef.current) {
        leaveEnded();
        return;
      }
      notify.error(t('test.submitFailed'));
      submittingRef.current = false;
    }
  }, [
    answers,
    files,
    attempt,
    offset,
    submit,
    saver,
    token,
    navigate,
    complete,
    leaveEnded,
    flushActivity,
    t,
  ]);

  const endedElsewhere = useCallback(() => {
    if (endedRef.current) return;
    endedRef.current = true;
    // A submit in flight or done opens the completion page itself (or, failing, leaves as above).
    if (submittingRef.current) return;
    submittingRef.current = true;
    leaveEnded();
  }, [leaveEnded]);

  const timeUpHandled = useRef(false);
  useEffect(() => {
    if (!timeUp) {
      // Time was added: the new deadline's time-up submits again.
      timeUpHandled.current = false;
      return;
    }
    if (timeUpHandled.current) return;
    timeUpHandled.current = true;
    notify.info(t('test.timeUp'));
    void finish();
  }, [timeUp, finish]);

  return { finish, submitting, endedElsewhere };
}
