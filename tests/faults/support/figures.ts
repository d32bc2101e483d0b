/**
 * The figures each scenario measured, written to `test-results/reliability.json`, and as the Markdown table that
 * docs/reliability.md carries (`test-results/reliability.md`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ScenarioTotals } from './tally';

export interface ScenarioFigures extends ScenarioTotals {
  scenario: string;
  /** What the scenario did, in one sentence. */
  fault: string;
  students: number;
  passes: number;
  /** Messages added to dead-letter queues during the scenario. */
  deadLetters: number;
  /** Deliveries RabbitMQ made again during the scenario (a consumer died holding them). */
  redeliveries: number;
  /** Scenario-specific measures: copies injected, commits left unacknowledged, failed sends… */
  measured: Record<string, number>;
  seconds: number;
}

const OUT = path.resolve(__dirname, '../../../test-results');

function markdown(figures: ScenarioFigures[]): string {
  const head =
    '| scenario | submitted (pass) | accepted | attempts | scored | certificates | certificate mails | duplicate effects | missing effects | dead letters | redeliveries | measured | seconds |';
  const rule = `|${' --- |'.repeat(13)}`;
  const rows = figures.map((f) =>
    [
      f.scenario,
      `${f.students} (${f.passes})`,
      f.accepted,
      f.attempts,
      f.scored,
      f.certificates,
      f.certificateMails,
      f.duplicateEffects,
      f.missingEffects,
      f.deadLetters,
      f.redeliveries,
      Object.entries(f.measured)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ') || '–',
      f.seconds,
    ].join(' | '),
  );
  return [head, rule, ...rows.map((r) => `| ${r} |`)].join('\n');
}

export function writeFigures(figures: ScenarioFigures[], meta: Record<string, unknown>): void {
  mkdirSync(OUT, { recursive: true });
  writeFileSync(
    path.join(OUT, 'reliability.json'),
    `${JSON.stringify({ ...meta, scenarios: figures }, null, 2)}\n`,
  );
  writeFileSync(path.join(OUT, 'reliability.md'), `${markdown(figures)}\n`);
}
