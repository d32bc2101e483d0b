import { useEffect, useRef, useState } from 'react';
import { Clock } from 'lucide-react';
import { announcement, crossedMark, formatCountdown } from '../clock';
import { KEEP_CLEAR } from '../../../lib/toast';
import { SAVE_STATUS_TEXT, type SaveStatus } from '../autosave';

interface TestHeaderProps {
  name: string;
  progress: number;
  timeLeftMs: number;
  saveStatus: SaveStatus;
}

/** SPEC §2: the student's name, progress percent with a bar, the countdown; and the autosave state. */
export function TestHeader({ name, progress, timeLeftMs, saveStatus }: TestHeaderProps) {
  const spoken = useTimeAnnouncement(timeLeftMs);
  const low = timeLeftMs <= 5 * 60_000;
  return (
    <div className="test-header" {...KEEP_CLEAR}>
      <div className="test-header__row">
        <p className="test-header__name">{name}</p>
        <p className={`test-header__save test-header__save--${saveStatus}`}>{SAVE_STATUS_TEXT[saveStatus]}</p>
        <div className={`timer${low ? ' timer--low' : ''}`} role="timer" aria-label="Time remaining">
          <Clock size={18} aria-hidden="true" />
          <span>{formatCountdown(timeLeftMs)}</span>
        </div>
      </div>
      <div className="test-header__progress">
        <div
          className="progress"
          role="progressbar"
          aria-label="Progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={progress}
        >
          <div className="progress__bar" style={{ width: `${progress}%` }} />
        </div>
        <span className="test-header__percent">{progress}% complete</span>
      </div>
      <p className="visually-hidden" aria-live="polite">
        {spoken}
      </p>
      <p className="visually-hidden" aria-live="polite">
        {useConnectionAnnouncement(saveStatus)}
      </p>
    </div>
  );
}

/** What the polite live region says: the time left at 10, 5 and 1 minutes, and nothing in between. */
function useTimeAnnouncement(timeLeftMs: number): string {
  const previous = useRef(timeLeftMs);
  const [spoken, setSpoken] = useState('');
  useEffect(() => {
    const mark = crossedMark(previous.current, timeLeftMs);
    previous.current = timeLeftMs;
    if (mark !== null) setSpoken(announcement(mark));
  }, [timeLeftMs]);
  return spoken;
}

/**
 * What a screen reader hears about saving: not every 'Saving…' and 'Saved' (one per answer), only losing
 * the connection and, after that, the answers reaching the server again.
 */
function useConnectionAnnouncement(saveStatus: SaveStatus): string {
  const [spoken, setSpoken] = useState('');
  useEffect(() => {
    if (saveStatus === 'offline') setSpoken(SAVE_STATUS_TEXT.offline);
    else if (saveStatus === 'saved') setSpoken((before) => (before ? SAVE_STATUS_TEXT.saved : before));
  }, [saveStatus]);
  return spoken;
}
