import os from 'node:os';
import path from 'node:path';

/**
 * What `make bench`'s scale files share (`*.scale.test.ts`, the jest project `scale`, not part of `make test`): a
 * service in-process at the size of several enrolment peaks, each admin page's time at its second call (the first
 * warms the plan and the cache), and the figures written to their section of docs/benchmarks.md. They check the
 * answers at that size too; how fast is reported, never asserted.
 */
export interface TimedCall {
  status: number;
  ms: number;
  body: string;
}

/** The second of two calls, timed: the first warms the statement's plan and PostgreSQL's cache. */
export async function secondCall(call: () => Promise<Response>): Promise<TimedCall> {
  await (await call()).arrayBuffer();
  const started = performance.now();
  const res = await call();
  const body = await res.text();
  return { status: res.status, ms: performance.now() - started, body };
}

/** One measured call: what was asked, its time in milliseconds, and what it answered. */
export type MeasuredCall = [string, number, string];

/**
 * Writes a scale file's section of docs/benchmarks.md (the bench's own writer, bench/lib.js): its heading, where and
 * when it ran, what it measured, and a table of its calls; nothing when no call was measured (a failed start).
 */
export function writeTimesSection(
  id: string,
  section: { heading: string; file: string; about: string; column: string },
  rows: MeasuredCall[],
): void {
  if (rows.length === 0) return;
  const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const table = [
    `| ${section.column} | Time | Answered |`,
    '| --- | --- | --- |',
    ...rows.map(
      ([what, ms, answered]) => `| ${what} | ${ms < 100 ? ms.toFixed(1) : ms.toFixed(0)} ms | ${answered} |`,
    ),
  ].join('\n');
  const markdown = `## ${section.heading}

Run ${when} UTC by \`make bench\` (${section.file}) on ${os.availableParallelism()} cores, Node ${process.version}, load
average ${os.loadavg()[0]!.toFixed(2)} at the end. ${section.about}

${table}`;
  const root = path.resolve(__dirname, '../../..');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the bench's CommonJS helpers, outside this package
  const { writeSection } = require(path.join(root, 'bench/lib.js')) as {
    writeSection: (file: string, id: string, markdown: string) => void;
  };
  writeSection(path.join(root, 'docs/benchmarks.md'), id, markdown);
}
