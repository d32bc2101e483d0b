import { useCallback, useEffect, useRef, useState } from 'react';
import { ActivityReporter, deviceId } from '../activity';
import { serverTime } from '../clock';

/** Whole seconds from one moment of this device to another, as the server takes them (0 to a day). */
const secondsBetween = (from: number, to: number) =>
  Math.min(86_400, Math.max(0, Math.round((to - from) / 1000)));

/** Under this long hidden is the instant a closing or reloading page is hidden first: nothing to tell. */
const HIDDEN_NOTICED_MS = 1000;

/**
 * What the running attempt's page sees for the attempt's timeline (see `ActivityReporter`): the device as the
 * page opens, each section shown, the page hidden (a tab switch) and for how long, the connection lost and for
 * how long, and text pasted into an answer (the question is the card's `data-question-id`). Every moment is
 * given by the server's clock (`offset`). Nothing here is ever shown to the student.
 *
 * `flush` reports what is queued, with the page's hidden time so far, for the submit to wait on.
 */
export function useAttemptActivity(
  token: string,
  attemptId: string,
  offset: number,
  sectionId: number | undefined,
) {
  const [reporter] = useState(() => new ActivityReporter({ token, attemptId, deviceId: deviceId() }));
  const offsetRef = useRef(offset);
  useEffect(() => {
    offsetRef.current = offset;
  }, [offset]);
  /** When the page was hidden (this device's clock), while it is. */
  const hiddenSince = useRef<number | null>(null);

  // A page still hidden as it closes or submits tells how long so far; what follows counts from now.
  const reportHiddenSoFar = useCallback(() => {
    const since = hiddenSince.current;
    const now = Date.now();
    if (since === null || now - since < HIDDEN_NOTICED_MS) return;
    reporter.record({
      kind: 'page_hidden',
      at: serverTime(offsetRef.current, since),
      seconds: secondsBetween(since, now),
    });
    hiddenSince.current = now;
  }, [reporter]);

  useEffect(() => {
    const at = (local: number) => serverTime(offsetRef.current, local);
    let offlineSince: number | null = navigator.onLine === false ? Date.now() : null;
    hiddenSince.current = document.visibilityState === 'hidden' ? Date.now() : null;

    const onVisibility = () => {
      const now = Date.now();
      if (document.visibilityState === 'hidden') {
        hiddenSince.current ??= now;
        // A phone may discard a hidden page without a pagehide: what is queued goes now.
        reporter.leave();
        return;
      }
      const since = hiddenSince.current;
      if (since === null) return;
      hiddenSince.current = null;
      reporter.record({ kind: 'page_hidden', at: at(since), seconds: secondsBetween(since, now) });
      void reporter.flush();
    };
    const onOffline = () => {
      offlineSince ??= Date.now();
    };
    const onOnline = () => {
      const since = offlineSince;
      if (since === null) return;
      offlineSince = null;
      reporter.record({ kind: 'offline', at: at(since), seconds: secondsBetween(since, Date.now()) });
      void reporter.flush();
    };
    const onPageHide = () => {
      reportHiddenSoFar();
      reporter.leave();
    };
    const onPaste = (event: ClipboardEvent) => {
      const card =
        event.target instanceof Element ? event.target.closest<HTMLElement>('[data-question-id]') : null;
      const questionId = card?.dataset.questionId;
      const chars = event.clipboardData?.getData('text/plain').length ?? 0;
      if (!questionId || chars === 0) return;
      reporter.record({ kind: 'pasted', at: at(Date.now()), questionId, chars: Math.min(chars, 1_000_000) });
    };

    // Pastes are seen while they go down to the field (capture), before a field could stop them.
    const listeners: Array<[EventTarget, string, (event: Event) => void, boolean?]> = [
      [document, 'visibilitychange', onVisibility],
      [document, 'paste', onPaste as (event: Event) => void, true],
      [window, 'offline', onOffline],
      [window, 'online', onOnline],
      [window, 'pagehide', onPageHide],
    ];
    for (const [target, type, listener, capture] of listeners)
      target.addEventListener(type, listener, capture);
    reporter.start();
    return () => {
      for (const [target, type, listener, capture] of listeners)
        target.removeEventListener(type, listener, capture);
      reporter.stop();
    };
  }, [reporter, reportHiddenSoFar]);

  // The first section shown counts as reached too; a section is reported once per change, not per render.
  const reportedSection = useRef<number | null>(null);
  useEffect(() => {
    if (sectionId === undefined || reportedSection.current === sectionId) return;
    reportedSection.current = sectionId;
    reporter.record({ kind: 'section_reached', at: serverTime(offsetRef.current), sectionId });
  }, [reporter, sectionId]);

  const flush = useCallback(() => {
    reportHiddenSoFar();
    return reporter.flush();
  }, [reporter, reportHiddenSoFar]);

  return { flush };
}
