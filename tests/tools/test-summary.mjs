// `make test`'s last line from jest's JSON report: passed, failed, skipped, and how many passed only on a retry
// (the browser tests run a failed test once more; one that needed it is flaky, and this says so).
import { readFileSync } from 'node:fs';

const report = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const retried = report.testResults.flatMap((file) =>
  file.assertionResults
    .filter((t) => t.status === 'passed' && (t.retryReasons?.length ?? 0) > 0)
    .map((t) => `${file.name.replace(`${process.cwd()}/`, '')}: ${t.fullName}`),
);
for (const name of retried) process.stdout.write(`passed on its second run: ${name}\n`);
const line = `${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests} skipped`;
process.stdout.write(`${retried.length > 0 ? `${line} (${retried.length} passed only on a retry)` : line}\n`);
