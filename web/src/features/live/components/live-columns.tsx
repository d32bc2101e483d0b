import { Clock, Square } from 'lucide-react';
import {
  actionsColumn,
  Badge,
  Button,
  type BadgeTone,
  type Column,
  personColumn,
} from '../../../components/ui';
import { formatCountdown, timeLeft } from '../../../lib/clock';
import { formatTime } from '../../../lib/format';
import { useAdminT, type AdminTranslate } from '../../../i18n/admin/admin-i18n';
import type { LiveAttempt, Presence } from '../api/live-api';

/** Below this the time left shows in red, as on the student's own page. */
const LOW_TIME_MS = 5 * 60_000;

const presenceTone: Record<Presence, BadgeTone> = { active: 'success', idle: 'warning', offline: 'danger' };

const presenceText = (t: AdminTranslate, a: LiveAttempt) =>
  a.presence === 'active'
    ? t('live.table.active')
    : a.presence === 'idle'
      ? t('live.table.idle', { minutes: a.idleMinutes })
      : t('live.table.offline');

function TimeLeft({ attempt, now, offset }: { attempt: LiveAttempt; now: number; offset: number }) {
  const t = useAdminT();
  const left = timeLeft(attempt.deadlineAt, offset, now);
  const low = left <= LOW_TIME_MS;
  return (
    <div className="badge-stack">
      <span className={`timer${low ? ' timer--low' : ''}`}>
        {formatCountdown(left)}
        {low && <span className="visually-hidden"> {t('live.table.lowTime')}</span>}
      </span>
      {attempt.extraTimePercent > 0 && (
        <Badge tone="accent">{t('live.table.extraTime', { percent: attempt.extraTimePercent })}</Badge>
      )}
      {attempt.addedMinutes > 0 && (
        <Badge tone="accent">{t('live.table.addedMinutes', { minutes: attempt.addedMinutes })}</Badge>
      )}
    </div>
  );
}

/** The Live table's columns: who, where they are, how long they have, whether their page is there, and actions. */
export function liveColumns(
  t: AdminTranslate,
  clock: { now: number; offset: number },
  actions: {
    onAddTime(attempt: LiveAttempt): void;
    onEnd(attempt: LiveAttempt): void;
  },
): Column<LiveAttempt>[] {
  return [
    personColumn('student', t('live.table.student'), (a: LiveAttempt) => ({
      name: a.name,
      email: a.email,
      details: a.attemptNumber > 1 ? [t('live.table.attemptNumber', { number: a.attemptNumber })] : [],
    })),
    {
      key: 'section',
      header: t('live.table.section'),
      render: (a) =>
        a.section ? (
          <div>
            <p className="nowrap">
              {t('live.table.sectionOf', { number: a.section.number, count: a.section.count })}
            </p>
            <p className="muted">{a.section.title}</p>
          </div>
        ) : (
          <p className="muted">{t('live.table.sectionNotReported')}</p>
        ),
    },
    { key: 'answered', header: t('live.table.answered'), render: (a) => `${a.answered} / ${a.total}` },
    {
      key: 'time-left',
      header: t('live.table.timeLeft'),
      render: (a) => <TimeLeft attempt={a} now={clock.now} offset={clock.offset} />,
    },
    {
      key: 'saved',
      header: t('live.table.lastSaved'),
      render: (a) => (
        <div>
          <Badge tone={presenceTone[a.presence]}>{presenceText(t, a)}</Badge>
          <p className="muted">
            {a.savedAt
              ? t('live.table.savedAt', { time: formatTime(Date.parse(a.savedAt)) })
              : t('live.table.nothingSaved')}
          </p>
        </div>
      ),
    },
    actionsColumn(
      (a) => (
        <>
          <Button
            variant="secondary"
            size="sm"
            icon={<Clock size={16} aria-hidden="true" />}
            aria-label={t('live.table.addTimeFor', { name: a.name })}
            onClick={() => actions.onAddTime(a)}
          >
            {t('live.table.addTime')}
          </Button>
          <Button
            variant="ghost"
            size="sm"
            className="btn--danger-text"
            icon={<Square size={16} aria-hidden="true" />}
            aria-label={t('live.table.endAttemptFor', { name: a.name })}
            onClick={() => actions.onEnd(a)}
          >
            {t('live.table.endAttempt')}
          </Button>
        </>
      ),
      t('live.table.actions'),
    ),
  ];
}
