// `make test`: every jest project, in three lanes one after another, each with the workers that suit it, then one
// summary of them all (tests/tools/test-summary.mjs). docs/testing.md says why the lanes are laid out so.
//
//   node tests/tools/run-lanes.mjs            every lane
//   TEST_LANES=component,e2e node ...         those lanes only
//   TEST_WORKERS=4 node ...                   the workers of the component lane (default 3)
//
//   TEST_WAIT_FOR_IMAGES=test-results/images.rc   before the faults lane (whose tests/images runs the product from
//                                             its images), waits until `make images`, run beside the tests by
//                                             .ci/run, has written its exit code to that file
//
// Each lane writes its jest report to test-results/jest-<lane>.json; a lane that fails does not stop the next, and the
// exit code is 1 when any failed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const jest = path.join(root, 'node_modules/.bin/jest');

/**
 * component: the projects that mostly wait (on PostgreSQL, the broker, timers) rather than compute, side by side.
 * e2e: the browser tests and HTTP journeys, one file at a time on the lane's shared product, in sequencer.js's order.
 * faults: the fault scenarios and rehearsals, each starting a whole stack, one at a time.
 */
const LANES = {
  component: [
    '--selectProjects',
    'kit',
    'services',
    'web',
    'deploy',
    `--maxWorkers=${process.env.TEST_WORKERS ?? 3}`,
  ],
  e2e: ['--selectProjects', 'e2e', '--maxWorkers=1'],
  faults: ['--selectProjects', 'faults', '--maxWorkers=1'],
};

const chosen = (process.env.TEST_LANES ?? Object.keys(LANES).join(','))
  .split(',')
  .map((lane) => lane.trim())
  .filter(Boolean);
const unknown = chosen.filter((lane) => !(lane in LANES));
if (unknown.length > 0) {
  process.stderr.write(
    `unknown lane ${unknown.join(', ')}: the lanes are ${Object.keys(LANES).join(', ')}\n`,
  );
  process.exit(2);
}

const results = path.join(root, 'test-results');
mkdirSync(results, { recursive: true });
let failed = false;
const reports = [];
for (const lane of chosen) {
  if (lane === 'faults' && process.env.TEST_WAIT_FOR_IMAGES)
    await imagesMade(process.env.TEST_WAIT_FOR_IMAGES);
  const report = path.join(results, `jest-${lane}.json`);
  rmSync(report, { force: true });
  const started = Date.now();
  process.stdout.write(`\n--- test lane ${lane}: jest ${LANES[lane].join(' ')}\n`);
  const run = spawnSync(jest, ['--ci', '--json', `--outputFile=${report}`, ...LANES[lane]], {
    cwd: root,
    stdio: 'inherit',
  });
  const seconds = Math.round((Date.now() - started) / 1000);
  process.stdout.write(`--- test lane ${lane}: ${run.status === 0 ? 'passed' : 'FAILED'} in ${seconds} s\n`);
  if (run.status !== 0) failed = true;
  reports.push(`${lane}=${seconds}=${report}`);
}

/** Waits for the images made beside the tests (.ci/run); the faults lane's tests/images then finds them or says why not. */
async function imagesMade(rcFile) {
  const started = Date.now();
  while (!existsSync(rcFile)) {
    if (Date.now() - started > 45 * 60_000) {
      process.stdout.write(
        `--- no word from make images in ${rcFile} after 45 minutes: the faults lane runs without\n`,
      );
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
  const waited = Math.round((Date.now() - started) / 1000);
  process.stdout.write(
    `--- make images ended with ${readFileSync(rcFile, 'utf8').trim()} (waited ${waited} s)\n`,
  );
}

const summary = spawnSync(process.execPath, [path.join(root, 'tests/tools/test-summary.mjs'), ...reports], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(failed || summary.status !== 0 ? 1 : 0);
