import { useEffect, useRef, useState } from 'react';
import { Clock } from 'lucide-react';
import type { Language } from '../../../i18n/languages';
import { LanguageSelect } from '../../../i18n/language-select';
import { useT } from '../../../i18n/react';
import { crossedMark, formatCountdown } from '../clock';
import { KEEP_CLEAR } from '../../../lib/toast';
import { SAVE_STATUS_MESSAGE, type SaveStatus } from '../autosave';

interface TestHeaderProps {
  name: string;
  progress: number;
  timeLeftMs: number;
  saveStatus: SaveStatus;
  onLanguage: (language: Language) => Promise<void>;
}

/**
 * SPEC §2: the student's name, progress percent with a bar, the countdown; and the autosave state and the language
 * switch.
 */
export function TestHeader({ name, progress, timeLeftMs, saveStatus, onLanguage }: TestHeaderProps) {
  const t = useT();
  const spoken = useTimeAnnouncement(timeLeftMs);
  const low = timeLeftMs <= 5 * 60_000;
  return (
    <div className="test-header" {...KEEP_CLEAR}>
      <div className="test-header__row">
        <p className="test-header__name">
          <bdi>{name}</bdi>
        </p>
        <p className={`test-header__save test-header__save--${saveStatus}`}>
          {t(SAVE_STATUS_MESSAGE[saveStatus])}
        </p>
        <LanguageSelect onChange={onLanguage} labelHidden />
        <div className={`timer${low ? ' timer--low' : ''}`} role="timer" aria-label={t('timer.label')}>
          <Clock size={18} aria-hidden="true" />
          <span>{formatCountdown(timeLeftMs)}</span>
        </div>
      </div>
      <div className="test-header__progress">
        <div
          className="progress"
          role="progressbar"
          aria-label={t('progress.label')}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={progress}
        >
          <div className="progress__bar" style={{ inlineSize: `${progress}%` }} />
        </div>
        <span className="test-header__percent">{t('progress.complete', { percent: progress })}</span>
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
  const t = useT();
  const previous = useRef(timeLeftMs);
  const [mark, setMark] = useState<number | null>(null);
  useEffect(() => {
    const crossed = crossedMark(previous.current, timeLeftMs);
    previous.current = timeLeftMs;
    if (crossed !== null) setMark(crossed);
  }, [timeLeftMs]);
  return mark === null ? '' : t('timer.remaining', { minutes: mark });
}

/**
 * What a screen reader hears about saving: not every 'Saving…' and 'Saved' (one per answer), only losing
 * the connection and, after that, the answers reaching the server again.
 */
function useConnectionAnnouncement(saveStatus: SaveStatus): string {
  const t = useT();
  const [spoken, setSpoken] = useState<SaveStatus | null>(null);
  useEffect(() => {
    if (saveStatus === 'offline') setSpoken('offline');
    else if (saveStatus === 'saved') setSpoken((before) => (before ? 'saved' : before));
  }, [saveStatus]);
  return spoken ? t(SAVE_STATUS_MESSAGE[spoken]) : '';
}
