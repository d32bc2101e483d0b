import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Answer, Attempt, UploadedFile } from '../api/types';
import { AnswerSaver, unsentAnswers, type SaveStatus } from '../autosave';
import type { AnswerMap } from '../progress';

const toMap = (answers: Answer[]): AnswerMap =>
  Object.fromEntries(answers.map((a) => [a.questionId, a.answer]));

export const toList = (answers: AnswerMap): Answer[] =>
  Object.entries(answers)
    .filter(([, answer]) => answer !== '')
    .map(([questionId, answer]) => ({ questionId, answer }));

/** What the attempt opens with: the server's saved answers, or this device's newer unsent ones. */
function initialAnswers(token: string, attempt: Attempt) {
  const unsent = unsentAnswers(token, attempt.id, attempt.seq);
  return unsent
    ? { answers: toMap(unsent.answers), seq: unsent.seq, unsent: true }
    : { answers: toMap(attempt.answers), seq: attempt.seq, unsent: false };
}

/**
 * The attempt's answers and files as the student gives them, each change autosaved (see `AnswerSaver`): sent when
 * the page is hidden or closed, kept on the device while offline and sent again once back online.
 */
export function useAttemptAnswers(token: string, attempt: Attempt) {
  const [initial] = useState(() => initialAnswers(token, attempt));
  const [answers, setAnswers] = useState<AnswerMap>(initial.answers);
  const [files, setFiles] = useState<Map<string, UploadedFile>>(
    () => new Map(attempt.files.map((f) => [f.questionId, f])),
  );
  const uploaded = useMemo(() => new Set(files.keys()), [files]);
  const [saveStatus, setSaveStatus] = useState<SaveStatus>(initial.unsent ? 'saving' : 'saved');
  const [saver] = useState(
    () =>
      new AnswerSaver({
        token,
        attemptId: attempt.id,
        seq: initial.seq,
        answers: toList(initial.answers),
        onStatus: setSaveStatus,
      }),
  );

  useEffect(() => {
    if (initial.unsent) saver.markUnsent(attempt.seq);
  }, [initial.unsent, saver, attempt.seq]);

  useEffect(() => {
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') saver.leave();
    };
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('pagehide', saver.leave);
    window.addEventListener('online', saver.online);
    window.addEventListener('offline', saver.wentOffline);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('pagehide', saver.leave);
      window.removeEventListener('online', saver.online);
      window.removeEventListener('offline', saver.wentOffline);
    };
  }, [saver]);

  // Kept beside the state so that each change is sent exactly once (an updater may run twice).
  const answersRef = useRef(answers);
  const setAnswer = useCallback(
    (questionId: string, answer: string) => {
      const after = { ...answersRef.current, [questionId]: answer };
      answersRef.current = after;
      setAnswers(after);
      saver.change(toList(after));
    },
    [saver],
  );

  const setFile = useCallback((questionId: string, file: UploadedFile | null) => {
    setFiles((before) => {
      const after = new Map(before);
      if (file) after.set(questionId, file);
      else after.delete(questionId);
      return after;
    });
  }, []);

  return { initialAnswers: initial.answers, answers, files, uploaded, saveStatus, saver, setAnswer, setFile };
}
