import { escapeHtml } from '@readiness/kit/i18n';
import type { RosterRow } from '../../data-access/scores-repository';

const GRADEBOOK: Record<string, string> = {
  none: 'No gradebook column',
  pending: 'Sending',
  sent: 'In the gradebook',
  failed: 'Not sent (an admin can send it again)',
};

const when = (d: Date) => d.toISOString().slice(0, 16).replace('T', ' ') + ' UTC';

function row(r: RosterRow): string {
  const name = r.name.trim() || `LMS user ${r.subject}`;
  const cells = r.score
    ? [
        r.score.passed ? 'Passed' : 'Not passed',
        `${r.score.scoreGiven} %`,
        String(r.score.attemptNumber),
        when(r.score.completedAt),
        GRADEBOOK[r.score.state] ?? r.score.state,
      ]
    : ['Not finished', '—', '—', '—', '—'];
  return `<tr><th scope="row"><bdi>${escapeHtml(name)}</bdi></th>${cells.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`;
}

/**
 * The instructor's page of one activity (resource link), read-only: the learners who opened it from this course
 * and their newest results. Plain HTML inside the LMS's frame; no script.
 */
export function instructorPage(title: string, roster: RosterRow[]): string {
  const finished = roster.filter((r) => r.score).length;
  const passed = roster.filter((r) => r.score?.passed).length;
  const heading = escapeHtml(title);
  const body =
    roster.length === 0
      ? '<p>No learner has opened this activity yet.</p>'
      : `<p>${roster.length} learner${roster.length === 1 ? '' : 's'} opened it; ${finished} finished, ${passed} passed.</p>` +
        `<table><caption>Learners of this activity and their newest results</caption><thead><tr>` +
        ['Learner', 'Result', 'Score', 'Attempt', 'Finished', 'Gradebook']
          .map((h) => `<th scope="col">${h}</th>`)
          .join('') +
        `</tr></thead><tbody>${roster.map(row).join('')}</tbody></table>`;
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${heading} · Readiness</title><style>` +
    'body{font-family:system-ui,sans-serif;margin:1.5rem;color:#1f2933}table{border-collapse:collapse;width:100%}' +
    'caption{text-align:left;font-weight:600;margin-bottom:.5rem}th,td{text-align:left;padding:.4rem .6rem;border-bottom:1px solid #d9dee4}' +
    'thead th{background:#f3f5f7}' +
    `</style></head><body><h1>${heading}</h1>${body}` +
    '<p><small>Read-only: the results of the learners who opened this activity from this course. ' +
    'Open it again to see them updated.</small></p></body></html>'
  );
}
