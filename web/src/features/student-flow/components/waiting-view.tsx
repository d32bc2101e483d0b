import { useEffect, useRef } from 'react';
import { Hourglass, PlayCircle } from 'lucide-react';
import type { Translate } from '../../../i18n/i18n';
import { useT } from '../../../i18n/react';
import type { AssessmentLoad } from '../api/types';
import { useWaitingRoom } from '../hooks/use-waiting-room';
import { waitEstimate, type LineFigures, type WaitEstimate } from '../waiting-room';
import { StartButton, WelcomeIntro } from './welcome-view';

function estimateText(t: Translate, estimate: WaitEstimate): string | null {
  if (!estimate) return null;
  if (estimate.unit === 'underMinute') return t('waiting.estimateUnderMinute');
  return estimate.unit === 'minutes'
    ? t('waiting.estimateMinutes', { minutes: estimate.minutes })
    : t('waiting.estimateHours', { hours: estimate.hours });
}

/** The card's heading takes the focus when the card replaces the Start button the student just pressed. */
function useFocusOnShow<T extends HTMLElement>() {
  const heading = useRef<T>(null);
  useEffect(() => heading.current?.focus(), []);
  return heading;
}

interface WaitingViewProps {
  load: AssessmentLoad;
  ticket: number;
  line: LineFigures;
  onAdmitted: () => void;
}

/**
 * In line to start (docs/waiting-room.md): the student's place, how long it looks, and that their time has not
 * started, kept up to date without a reload (the line's event stream, else polls). The place is told to screen
 * readers as each message or poll brings it, never every second.
 */
export function WaitingView({ load, ticket, line, onAdmitted }: WaitingViewProps) {
  const t = useT();
  const { place, perMinute, announced } = useWaitingRoom(ticket, line, onAdmitted);
  const estimate = estimateText(t, waitEstimate(place, perMinute));
  const heading = useFocusOnShow<HTMLHeadingElement>();
  return (
    <div className="welcome stack">
      <WelcomeIntro student={load.student} />
      <section className="card card__body stack stack--tight waiting" aria-labelledby="waiting-title">
        <h2 id="waiting-title" className="welcome__heading waiting__title" tabIndex={-1} ref={heading}>
          <Hourglass size={20} aria-hidden="true" />
          {t('waiting.title')}
        </h2>
        {/* Seen, the place moves each second; heard, it is the live region's, which speaks once a message or poll. */}
        <p className="waiting__place" aria-hidden="true">
          {t('waiting.place', { place })}
        </p>
        {estimate && <p className="waiting__estimate">{estimate}</p>}
        <p className="waiting__note">{t('waiting.notStarted')}</p>
        <p className="visually-hidden" aria-live="polite">
          {t('waiting.place', { place: announced })}
        </p>
      </section>
    </div>
  );
}

interface YourTurnViewProps {
  load: AssessmentLoad;
  starting: boolean;
  onStart: () => void;
}

/**
 * Admitted while the tab was hidden: the clock starts only when the student is back and presses Start. The tab's
 * title says so meanwhile.
 */
export function YourTurnView({ load, starting, onStart }: YourTurnViewProps) {
  const t = useT();
  const heading = useFocusOnShow<HTMLHeadingElement>();
  useEffect(() => {
    document.title = t('waiting.documentTitle');
    return () => {
      document.title = t('app.title');
    };
  }, [t]);
  return (
    <div className="welcome stack">
      <WelcomeIntro student={load.student} />
      <section className="card card__body stack stack--tight waiting" aria-labelledby="your-turn-title">
        <h2 id="your-turn-title" className="welcome__heading waiting__title" tabIndex={-1} ref={heading}>
          <PlayCircle size={20} aria-hidden="true" />
          {t('waiting.turnTitle')}
        </h2>
        <p className="waiting__note">{t('waiting.turnText')}</p>
        <p className="visually-hidden" role="alert">
          {t('waiting.turnTitle')}
        </p>
        <StartButton starting={starting} onStart={onStart} />
      </section>
    </div>
  );
}
