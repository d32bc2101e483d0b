import { Clock, Square } from 'lucide-react';
import { actionsColumn, Badge, Button, Person, type BadgeTone, type Column } from '../../../components/ui';
import { formatCountdown, timeLeft } from '../../../lib/clock';
import { formatTime } from '../../../lib/format';
import type { LiveAttempt, Presence } from '../api/live-api';

/** Below this the time left shows in red, as on the student's own page. */
const LOW_TIME_MS = 5 * 60_000;

const presenceTone: Record<Presence, BadgeTone> = { active: 'success', idle: 'warning', offline: 'danger' };

const presenceText = (a: LiveAttempt) =>
  a.presence === 'active' ? 'Active' : a.presence === 'idle' ? `Idle ${a.idleMinutes} min` : 'Offline';

function TimeLeft({ attempt, now, offset }: { attempt: LiveAttempt; now: number; offset: number }) {
  const left = timeLeft(attempt.deadlineAt, offset, now);
  const low = left <= LOW_TIME_MS;
  return (
    <div className="badge-stack">
      <span className={`timer${low ? ' timer--low' : ''}`}>
        {formatCountdown(left)}
        {low && <span className="visually-hidden"> (under 5 minutes)</span>}
      </span>
      {attempt.extraTimePercent > 0 && <Badge tone="accent">{`+${attempt.extraTimePercent}% time`}</Badge>}
      {attempt.addedMinutes > 0 && <Badge tone="accent">{`+${attempt.addedMinutes} min added`}</Badge>}
    </div>
  );
}

/** The Live table's columns: who, where they are, how long they have, whether their page is there, and actions. */
export function liveColumns(
  clock: { now: number; offset: number },
  actions: {
    onAddTime(attempt: LiveAttempt): void;
    onEnd(attempt: LiveAttempt): void;
  },
): Column<LiveAttempt>[] {
  return [
    {
      key: 'student',
      header: 'Student',
      render: (a) => (
        <Person
          name={a.name}
          email={a.email}
          details={a.attemptNumber > 1 ? [`Attempt ${a.attemptNumber}`] : []}
        />
      ),
    },
    {
      key: 'section',
      header: 'Section',
      render: (a) =>
        a.section ? (
          <div>
            <p className="nowrap">
              Section {a.section.number} of {a.section.count}
            </p>
            <p className="muted">{a.section.title}</p>
          </div>
        ) : (
          '—'
        ),
    },
    { key: 'answered', header: 'Answered', render: (a) => `${a.answered} / ${a.total}` },
    {
      key: 'time-left',
      header: 'Time left',
      render: (a) => <TimeLeft attempt={a} now={clock.now} offset={clock.offset} />,
    },
    {
      key: 'saved',
      header: 'Last saved',
      render: (a) => (
        <div>
          <Badge tone={presenceTone[a.presence]}>{presenceText(a)}</Badge>
          <p className="muted">
            {a.savedAt ? `Saved ${formatTime(Date.parse(a.savedAt))}` : 'Nothing saved yet'}
          </p>
        </div>
      ),
    },
    actionsColumn((a) => (
      <>
        <Button
          variant="secondary"
          size="sm"
          icon={<Clock size={16} aria-hidden="true" />}
          aria-label={`Add time for ${a.name}`}
          onClick={() => actions.onAddTime(a)}
        >
          Add time
        </Button>
        <Button
          variant="ghost"
          size="sm"
          className="btn--danger-text"
          icon={<Square size={16} aria-hidden="true" />}
          aria-label={`End attempt for ${a.name}`}
          onClick={() => actions.onEnd(a)}
        >
          End attempt
        </Button>
      </>
    )),
  ];
}
