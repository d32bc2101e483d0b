import { useSelector } from 'react-redux';
import {
  AlarmClockPlus,
  ClipboardPaste,
  EyeOff,
  MonitorSmartphone,
  WifiOff,
  type LucideIcon,
} from 'lucide-react';
import { Card } from '../../../components/ui';
import { formatDate } from '../../../lib/format';
import { selectAdmin } from '../../auth/api/session';
import type { ResultDetail, TimelineEntry, TimelineKind } from '../api/types';

const timeOfDay = new Intl.DateTimeFormat('en-US', {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** A duration as people say it: '45 s', '2 min 5 s', '1 h 3 min' (an hour and more leaves the seconds out). */
export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  if (total < 60) return `${total} s`;
  if (total < 3600) {
    const rest = total % 60;
    return `${Math.floor(total / 60)} min${rest ? ` ${rest} s` : ''}`;
  }
  const minutes = Math.floor((total % 3600) / 60);
  return `${Math.floor(total / 3600)} h${minutes ? ` ${minutes} min` : ''}`;
}

/** The facts a reviewer may want to notice: marked, in a neutral tone (a fact, never a fault). */
const NOTABLE: Partial<Record<TimelineKind, LucideIcon>> = {
  offline: WifiOff,
  page_hidden: EyeOff,
  pasted: ClipboardPaste,
  second_device: MonitorSmartphone,
  extended: AlarmClockPlus,
};

interface Reading {
  /** The local day the attempt started: a time on another day shows its date too. */
  startDay: string;
  sections: Map<number, { number: number; title: string }>;
  /** Each question's number across the version, from 1. */
  questions: Map<string, number>;
  /** The signed-in administrator, whose own actions read 'by you'. */
  meId: string | undefined;
}

const dayOf = (iso: string) => new Date(iso).toDateString();

/** The time of day of a moment, and its date when it is not the day the attempt started. */
function moment(iso: string, reading: Reading): { date?: string; time: string } {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return { time: iso };
  const time = timeOfDay.format(date);
  return dayOf(iso) === reading.startDay ? { time } : { date: formatDate(iso), time };
}

function when(iso: string, reading: Reading): string {
  const { date, time } = moment(iso, reading);
  return date ? `${date} ${time}` : time;
}

function When({ iso, reading }: { iso: string; reading: Reading }) {
  const { date, time } = moment(iso, reading);
  return (
    <time className="timeline__time" dateTime={iso}>
      {date && <span className="timeline__date">{date} </span>}
      {time}
    </time>
  );
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function sentence(entry: TimelineEntry, reading: Reading): string {
  const by = entry.actorId !== undefined && entry.actorId === reading.meId ? 'by you' : 'by an administrator';
  switch (entry.kind) {
    case 'started':
      return 'Started';
    case 'section_reached': {
      const section = entry.sectionId === undefined ? undefined : reading.sections.get(entry.sectionId);
      return section ? `Reached section ${section.number}: ${section.title}` : 'Reached a section';
    }
    case 'saved': {
      const count = entry.count ?? 1;
      if (count <= 1) return 'Answers saved';
      return `Answers saved ${count} times${entry.until ? `, until ${when(entry.until, reading)}` : ''}`;
    }
    case 'offline':
      return entry.seconds === undefined ? 'Offline' : `Offline for ${formatDuration(entry.seconds)}`;
    case 'page_hidden':
      return entry.seconds === undefined
        ? 'Left the page'
        : `Left the page for ${formatDuration(entry.seconds)}`;
    case 'pasted': {
      const number = entry.questionId === undefined ? undefined : reading.questions.get(entry.questionId);
      const what = entry.count === undefined ? 'text' : plural(entry.count, 'character', 'characters');
      return `Pasted ${what} into ${number === undefined ? 'an answer' : `question ${number}`}`;
    }
    case 'second_device':
      return 'Opened on a second device or browser';
    case 'extended':
      return entry.minutes === undefined
        ? `Time added ${by}`
        : `${plural(entry.minutes, 'minute', 'minutes')} added ${by}`;
    case 'submitted':
      return 'Submitted';
    case 'ended':
      return `Ended ${by}`;
    case 'timed_out':
      return 'Ended when the time ran out';
    default:
      return 'Something happened';
  }
}

/**
 * The attempt's timeline on the result detail: what happened while the student took it, from what the server
 * recorded and what the student's page reported. Facts for the reviewer to read, never part of the score: the
 * entries worth noticing carry a neutral mark, none an error colour.
 */
export function ResultTimeline({ result }: { result: ResultDetail }) {
  const me = useSelector(selectAdmin);
  const timeline = result.timeline ?? [];
  const versionSections = result.assessmentVersion?.sections ?? [];
  const start = timeline.find((e) => e.kind === 'started')?.at ?? result.startedAt ?? timeline[0]?.at;
  const reading: Reading = {
    startDay: start ? dayOf(start) : '',
    sections: new Map(versionSections.map((s, index) => [s.id, { number: index + 1, title: s.title }])),
    questions: new Map(versionSections.flatMap((s) => s.questions).map((q, index) => [q.id, index + 1])),
    meId: me?._id,
  };
  return (
    <Card title="Timeline">
      <p className="muted timeline__intro">
        What happened during this attempt. These are facts, not part of the score.
      </p>
      {timeline.length === 0 ? (
        <p className="timeline__empty">No timeline was recorded for this attempt.</p>
      ) : (
        <ol className="timeline">
          {timeline.map((entry, index) => {
            const Icon = NOTABLE[entry.kind];
            return (
              <li
                key={`${entry.at}-${index}`}
                className={`timeline__item${Icon ? ' timeline__item--notable' : ''}`}
              >
                <When iso={entry.at} reading={reading} />
                {Icon ? (
                  <span className="badge badge--neutral timeline__mark" aria-hidden="true">
                    <Icon size={14} />
                  </span>
                ) : (
                  <span className="timeline__mark timeline__mark--plain" aria-hidden="true" />
                )}
                <span className="timeline__text">{sentence(entry, reading)}</span>
              </li>
            );
          })}
        </ol>
      )}
    </Card>
  );
}
