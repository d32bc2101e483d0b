import type { TimelineFact } from '@readiness/contracts';
import type { ResultCopy, VersionCopy } from '../../data-access/records';
import { longDate } from './format';

const CLOCK = new Intl.DateTimeFormat('en-GB', {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  timeZone: 'UTC',
});

/** `45 s`, `2 min 5 s`, `1 h 3 min`. */
export function spoken(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (h > 0) return m > 0 ? `${h} h ${m} min` : `${h} h`;
  return s % 60 > 0 ? `${m} min ${s % 60} s` : `${m} min`;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The fact as one plain sentence, naming sections and questions as the version numbers them. */
function sentence(f: TimelineFact, version: VersionCopy | undefined, titles: Map<number, string>): string {
  switch (f.kind) {
    case 'started':
      return 'Started';
    case 'section_reached': {
      const index = version?.sections.findIndex((s) => s.id === f.sectionId) ?? -1;
      const title = f.sectionId === undefined ? undefined : titles.get(f.sectionId);
      return index >= 0 && title ? `Reached section ${index + 1}: ${title}` : 'Reached a section';
    }
    case 'saved':
      return (f.count ?? 1) > 1 && f.until
        ? `Answers saved ${f.count} times, until ${CLOCK.format(new Date(f.until))}`
        : 'Answers saved';
    case 'offline':
      return `Offline for ${spoken(f.seconds ?? 0)}`;
    case 'page_hidden':
      return `Left the page for ${spoken(f.seconds ?? 0)}`;
    case 'pasted': {
      const index = version?.questions.findIndex((q) => q.id === f.questionId) ?? -1;
      const chars = plural(f.count ?? 0, 'character', 'characters');
      return index >= 0 ? `Pasted ${chars} into question ${index + 1}` : `Pasted ${chars} into an answer`;
    }
    case 'second_device':
      return 'Opened on a second device or browser';
    case 'extended':
      return `${plural(f.minutes ?? 0, 'minute', 'minutes')} added by an administrator`;
    case 'submitted':
      return 'Submitted';
    case 'ended':
      return 'Ended by an administrator';
    case 'timed_out':
      return 'Ended when the time ran out';
  }
}

/** Facts a reader may want to look at; shown as facts, never as a penalty. */
const NOTABLE = new Set<TimelineFact['kind']>([
  'offline',
  'page_hidden',
  'pasted',
  'second_device',
  'extended',
]);

export interface TimelineLine {
  /** `10:02:15 UTC`, with the date when it is not the start's day. */
  time: string;
  text: string;
  notable: boolean;
}

/** The attempt's timeline as the PDF report lists it (UTC, as the rest of the report). */
export function timelineLines(result: ResultCopy, version: VersionCopy | undefined): TimelineLine[] {
  const titles = new Map<number, string>([
    ...(version?.sections.map((s) => [s.id, s.title] as [number, string]) ?? []),
    ...result.sections.map((s) => [s.sectionId, s.title] as [number, string]),
  ]);
  const first = result.timeline[0] ? longDate(new Date(result.timeline[0].at)) : '';
  return result.timeline.map((f) => {
    const at = new Date(f.at);
    const day = longDate(at);
    return {
      time: `${day === first ? '' : `${day}, `}${CLOCK.format(at)} UTC`,
      text: sentence(f, version, titles),
      notable: NOTABLE.has(f.kind),
    };
  });
}
