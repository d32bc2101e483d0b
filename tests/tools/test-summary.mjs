// `make test`'s closing lines from the lanes' jest reports (arguments `lane=seconds=report.json`, or a bare report):
// the time of each lane and of each project (its files' summed run time, and from its first file's start to its last
// file's end), the 15 slowest files, the tests that passed only on a retry (the browser tests run a failed test once
// more; one that needed it is flaky, and this says so), and the pass/fail line.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';

const lanes = process.argv.slice(2).map((arg) => {
  const [lane, seconds, file] = arg.includes('=') ? arg.split('=') : ['all', '', arg];
  return { lane, seconds: seconds ? Number(seconds) : undefined, file };
});

/**
 * The jest project a file belongs to (jest's report does not name it), from jest.config.js itself: the project whose
 * roots hold the file and whose ignore patterns leave it in.
 */
const { projects: jestProjects } = createRequire(import.meta.url)('../../jest.config.js');
const root = process.cwd();
function projectOf(file) {
  const absolute = path.join(root, file);
  const found = jestProjects.find(
    (project) =>
      project.roots.some((dir) => absolute.startsWith(`${dir.replace('<rootDir>', root)}/`)) &&
      !(project.testPathIgnorePatterns ?? []).some((pattern) => new RegExp(pattern).test(absolute)),
  );
  return found?.displayName ?? 'other';
}

let passed = 0;
let failedTests = 0;
let skipped = 0;
let failedFiles = 0;
const files = [];
const retried = [];
const failed = [];
const missing = [];
for (const { lane, file } of lanes) {
  if (!existsSync(file)) {
    missing.push(lane);
    continue;
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed += report.numPassedTests;
  failedTests += report.numFailedTests;
  skipped += report.numPendingTests;
  failedFiles += report.numRuntimeErrorTestSuites ?? 0;
  for (const result of report.testResults) {
    const name = result.name.replace(`${process.cwd()}/`, '');
    const project = projectOf(name);
    const start = result.perfStats?.start ?? result.startTime;
    const end = result.perfStats?.end ?? result.endTime;
    files.push({ name, project, lane, start, end, seconds: (end - start) / 1000 });
    if (result.status === 'failed' && result.assertionResults.every((test) => test.status !== 'failed'))
      failed.push(`${name}: the file failed to run: ${firstLine(result.message)}`);
    for (const test of result.assertionResults) {
      if (test.status === 'failed')
        failed.push(`${name}: ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
      if (test.status === 'passed' && (test.retryReasons?.length ?? 0) > 0)
        retried.push(`${name}: ${test.fullName}`);
    }
  }
}

/** The first line of a failure that says something (jest's messages start with blank lines and colour codes). */
function firstLine(message = '') {
  const plain = stripVTControlCharacters(message);
  return (plain.split('\n').find((l) => l.trim() !== '' && !l.trim().startsWith('●')) ?? '')
    .trim()
    .slice(0, 300);
}

const out = (line = '') => process.stdout.write(`${line}\n`);
const pad = (text, width) => String(text).padEnd(width);
const padStart = (text, width) => String(text).padStart(width);

out('\nTime by lane');
for (const { lane, seconds } of lanes) {
  const count = files.filter((f) => f.lane === lane).length;
  out(`  ${pad(lane, 12)} ${padStart(seconds === undefined ? '-' : `${seconds} s`, 8)}  ${count} files`);
}
out('\nTime by project (files summed / first start to last end)');
const projects = [...new Set(files.map((f) => f.project))];
for (const project of projects) {
  const own = files.filter((f) => f.project === project);
  const summed = own.reduce((total, f) => total + f.seconds, 0);
  const span = (Math.max(...own.map((f) => f.end)) - Math.min(...own.map((f) => f.start))) / 1000;
  out(
    `  ${pad(project, 12)} ${padStart(`${Math.round(summed)} s`, 8)} / ${padStart(`${Math.round(span)} s`, 6)}  ${own.length} files`,
  );
}
out('\nThe 15 slowest files');
for (const f of [...files].sort((a, b) => b.seconds - a.seconds).slice(0, 15)) {
  out(`  ${padStart(`${f.seconds.toFixed(1)} s`, 9)}  ${f.name}`);
}
out();
for (const name of retried) out(`passed on its second run: ${name}`);
// The last lines are what a CI log keeps: every failure is named here, whatever scrolled away above.
for (const name of failed) out(`FAILED ${name}`);
for (const lane of missing) out(`the ${lane} lane wrote no report (it did not run to the end)`);
if (failedFiles > 0) out(`${failedFiles} test files failed to run`);
const line = `${passed} passed, ${failedTests + failedFiles} failed, ${skipped} skipped`;
out(retried.length > 0 ? `${line} (${retried.length} passed only on a retry)` : line);
process.exit(missing.length > 0 ? 1 : 0);
