// `make test`: every jest project, in six lanes, each with the workers that suit it: the component lane first, then
// the three browser lanes, the fault lane and the rehearsals lane side by side; then one summary of them all
// (tests/tools/test-summary.mjs). docs/testing.md says why the lanes are laid out so.
//
//   node tests/tools/run-lanes.mjs            every lane
//   TEST_LANES=component,e2e node ...         those lanes only
//   TEST_WORKERS=4 node ...                   the workers of the component lane (default 3)
//
//   TEST_WAIT_FOR_IMAGES=test-results/images.rc   before the rehearsals lane (whose tests/images runs the product
//                                             from its images), waits until `make images`, run beside the tests by
//                                             .ci/run, has written its exit code to that file
//
// Each lane writes its jest report to test-results/jest-<lane>.json (the first lane of a stage writes to the terminal,
// the others to lane-<lane>.log, printed when they end); a lane that fails does not stop the others, and the exit code
// is 1 when any failed.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { FIRST_PRODUCT, SECOND_PRODUCT } = createRequire(import.meta.url)('../../web/e2e/sequencer.js');
const jest = path.join(root, 'node_modules/.bin/jest');

/**
 * component: the projects that mostly wait (on PostgreSQL, the broker, timers) rather than compute, side by side.
 * e2e and e2e-2: the browser tests and HTTP journeys, one file at a time on the lane's shared product, in sequencer.js's
 *   order: e2e the files of FIRST_PRODUCT, e2e-2 those of SECOND_PRODUCT, each on a shared product of its own.
 * e2e-own: the browser files that start a product of their own, one at a time.
 * faults: QUALITY.md's fault scenarios (one file: about five minutes of bursts and faults alone, ten beside the others).
 * rehearsals: the traces, the restore and upgrade rehearsals and the images, each starting a whole stack.
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
  // The path patterns go first: every word after --selectProjects is read as a project's name.
  e2e: [...browserFiles('shared'), '--selectProjects', 'e2e', '--maxWorkers=1'],
  'e2e-2': [...browserFiles('second'), '--selectProjects', 'e2e', '--maxWorkers=1'],
  'e2e-own': [...browserFiles('own'), '--selectProjects', 'e2e', '--maxWorkers=1'],
  faults: ['tests/faults/', '--selectProjects', 'faults', '--maxWorkers=1'],
  rehearsals: ['tests/(traces|operations|images)/', '--selectProjects', 'faults', '--maxWorkers=1'],
};

/** What a lane's jest needs in its environment besides this process's. */
const LANE_ENV = {
  // Its files each start a product with settings of their own: the lane's shared product would serve none of them,
  // so its globalSetup starts none (SHARED_ENV in deploy/all-in-one/test/launcher.ts, `off`).
  'e2e-own': { READINESS_E2E_SHARED: 'off' },
};

/**
 * The browser lanes' files, as jest path patterns: those that run on a lane's shared product (the sequencer's
 * FIRST_PRODUCT, `shared`, and SECOND_PRODUCT, `second`), or the others (`own`), which start a product
 * of their own (its settings, or data no other file touched) and so need nothing of a shared one: they run as a lane of
 * their own beside them. A new file that is in neither list runs with the others and starts its own product when no
 * shared one is there (web/e2e/support.ts).
 */
function browserFiles(which) {
  const all = [
    ...readdirSync(path.join(root, 'web/e2e'))
      .filter((name) => name.endsWith('.test.ts'))
      .map((name) => `web/e2e/${name}`),
    ...readdirSync(path.join(root, 'deploy/all-in-one/test'))
      .filter((name) => name.endsWith('.e2e.test.ts'))
      .map((name) => `deploy/all-in-one/test/${name}`),
  ];
  const laneOf = (name) =>
    FIRST_PRODUCT.includes(name) ? 'shared' : SECOND_PRODUCT.includes(name) ? 'second' : 'own';
  const chosen = all.filter((file) => laneOf(path.basename(file)) === which);
  return chosen.map((file) => `${file.replace(/[.]/g, '\\.')}$`);
}

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

/**
 * The lanes of a stage run side by side, the stages one after another: the component lane keeps both cores busy on
 * its own, while the browser lane and the fault lane each spend much of their time waiting (on the page, on a
 * backoff, on a fault to heal), so they share the machine.
 */
const STAGES = [['component'], ['e2e', 'e2e-2', 'e2e-own', 'faults', 'rehearsals']];

const results = path.join(root, 'test-results');
mkdirSync(results, { recursive: true });
let failed = false;
const reports = [];
for (const stage of STAGES.map((lanes) => lanes.filter((lane) => chosen.includes(lane)))) {
  if (stage.length === 0) continue;
  // The first lane of a stage writes to the terminal as it goes; the others to a log, printed when they end.
  const ran = await Promise.all(stage.map((lane, index) => runLane(lane, index > 0)));
  for (const { lane, seconds, status, report } of ran) {
    if (status !== 0) failed = true;
    reports.push(`${lane}=${seconds}=${report}`);
  }
}

async function runLane(lane, quiet) {
  if (lane === 'rehearsals' && process.env.TEST_WAIT_FOR_IMAGES)
    await imagesMade(process.env.TEST_WAIT_FOR_IMAGES);
  const report = path.join(results, `jest-${lane}.json`);
  const log = path.join(results, `lane-${lane}.log`);
  rmSync(report, { force: true });
  const started = Date.now();
  const say = (line) => process.stdout.write(`--- test lane ${lane}: ${line}\n`);
  say(
    `jest ${LANES[lane].join(' ')}${quiet ? ` (its output in ${path.relative(root, log)}, shown when it ends)` : ''}`,
  );
  const output = quiet ? openSync(log, 'w') : 'inherit';
  const child = spawn(jest, ['--ci', '--json', `--outputFile=${report}`, ...LANES[lane]], {
    cwd: root,
    // TEST_LANE names the lane to every process it starts (tests/tools/cpu-by-lane.mjs reads it).
    env: { ...process.env, ...LANE_ENV[lane], TEST_LANE: lane },
    stdio: ['ignore', output, output],
  });
  const status = await new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
  const seconds = Math.round((Date.now() - started) / 1000);
  if (quiet) {
    closeSync(output);
    process.stdout.write(`\n--- test lane ${lane}: its output\n${readFileSync(log, 'utf8')}`);
  }
  say(`${status === 0 ? 'passed' : 'FAILED'} in ${seconds} s`);
  return { lane, seconds, status, report };
}

/** Waits for the images made beside the tests (.ci/run); the rehearsals lane's tests/images then finds them or says why not. */
async function imagesMade(rcFile) {
  const started = Date.now();
  while (!existsSync(rcFile)) {
    if (Date.now() - started > 45 * 60_000) {
      process.stdout.write(
        `--- no word from make images in ${rcFile} after 45 minutes: the rehearsals lane runs without\n`,
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
