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
import { formatDate, formatTimeWithSeconds } from '../../../lib/format';
import { selectAdmin } from '../../auth/api/session';
import { adminT, useAdminT } from '../../../i18n/admin/admin-i18n';
import type { ResultDetail, TimelineEntry, TimelineKind } from '../api/types';

/** A duration as people say it: '45 s', '2 min 5 s', '1 h 3 min' (an hour and more leaves the seconds out). */
export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  if (total < 60) return adminT('results.duration.seconds', { seconds: total });
  if (total < 3600) {
    const minutes = Math.floor(total / 60);
    const seconds = total % 60;
    return seconds
      ? adminT('results.duration.minutesSeconds', { minutes, seconds })
      : adminT('results.duration.minutes', { minutes });
  }
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  return minutes
    ? adminT('results.duration.hoursMinutes', { hours, minutes })
    : adminT('results.duration.hours', { hours });
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
  const time = formatTimeWithSeconds(date);
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

/** What the pasted entry says: how much was pasted (when known) and where (when known). */
function pasted(count: number | undefined, number: number | undefined): string {
  if (count === undefined) {
    return number === undefined
      ? adminT('results.timeline.pastedText')
      : adminT('results.timeline.pastedTextQuestion', { number });
  }
  return number === undefined
    ? adminT('results.timeline.pastedChars', { count })
    : adminT('results.timeline.pastedCharsQuestion', { count, number });
}

function sentence(entry: TimelineEntry, reading: Reading): string {
  const byMe = entry.actorId !== undefined && entry.actorId === reading.meId;
  switch (entry.kind) {
    case 'started':
      return adminT('results.timeline.started');
    case 'section_reached': {
      const section = entry.sectionId === undefined ? undefined : reading.sections.get(entry.sectionId);
      return section
        ? adminT('results.timeline.reachedSection', { number: section.number, title: section.title })
        : adminT('results.timeline.reachedASection');
    }
    case 'saved': {
      const count = entry.count ?? 1;
      if (count <= 1) return adminT('results.timeline.saved');
      return entry.until
        ? adminT('results.timeline.savedTimesUntil', { count, time: when(entry.until, reading) })
        : adminT('results.timeline.savedTimes', { count });
    }
    case 'offline':
      return entry.seconds === undefined
        ? adminT('results.timeline.offline')
        : adminT('results.timeline.offlineFor', { duration: formatDuration(entry.seconds) });
    case 'page_hidden':
      return entry.seconds === undefined
        ? adminT('results.timeline.leftPage')
        : adminT('results.timeline.leftPageFor', { duration: formatDuration(entry.seconds) });
    case 'pasted':
      return pasted(
        entry.count,
        entry.questionId === undefined ? undefined : reading.questions.get(entry.questionId),
      );
    case 'second_device':
      return adminT('results.timeline.secondDevice');
    case 'extended':
      if (entry.minutes === undefined) {
        return byMe ? adminT('results.timeline.timeAddedByYou') : adminT('results.timeline.timeAddedByAdmin');
      }
      return byMe
        ? adminT('results.timeline.minutesAddedByYou', { minutes: entry.minutes })
        : adminT('results.timeline.minutesAddedByAdmin', { minutes: entry.minutes });
    case 'submitted':
      return adminT('results.timeline.submitted');
    case 'ended':
      return byMe ? adminT('results.timeline.endedByYou') : adminT('results.timeline.endedByAdmin');
    case 'timed_out':
      return adminT('results.timeline.timedOut');
    default:
      return adminT('results.timeline.other');
  }
}

/**
 * The attempt's timeline on the result detail: what happened while the student took it, from what the server
 * recorded and what the student's page reported. Facts for the reviewer to read, never part of the score: the
 * entries worth noticing carry a neutral mark, none an error colour.
 */
export function ResultTimeline({ result }: { result: ResultDetail }) {
  const t = useAdminT();
  const me = useSelector(selectAdmin);
  const timeline = result.timeline ?? [];
  const versionSections = result.assessmentVersion?.sections ?? [];
  const start = timeline.find((e) => e.kind === 'started')?.at ?? result.startedAt ?? timeline[0]?.at;
  const reading: Reading = {
    startDay: start ? dayOf(start) : '',
    sections: new Map(versionSections.map((s, index) => [s.id, { number: index + 1, title: s.title }])),
    questions: new Map(versionSections.flatMap((s) => s.questions).map((q) => [q.id, q.number])),
    meId: me?._id,
  };
  return (
    <Card title={t('results.timeline.title')}>
      <p className="muted timeline__intro">{t('results.timeline.intro')}</p>
      {timeline.length === 0 ? (
        <p className="timeline__empty">{t('results.timeline.empty')}</p>
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
