/*
 * The browser lanes' order. The files of a lane share one product (shared-product.ts), so those that read the
 * installation as a first start left it (the dashboard at zero, the seeded assessment and its translations) run before
 * those that save assessment versions; the files with a product of their own come last, in jest's usual order. A lane
 * runs one file at a time (tests/tools/run-lanes.mjs), so this order is the order they meet its product in.
 */
const Sequencer = require('@jest/test-sequencer').default;
const path = require('node:path');

const SHARED_ORDER = [
  'results.e2e.test.ts',
  'students.e2e.test.ts',
  // Before lti.e2e, whose connection stays: it starts from no LMS connection, and deletes the one it adds.
  'lti-connections.browser.test.ts',
  'lti.e2e.test.ts',
  'admin-accounts.e2e.test.ts',
  'verify.browser.test.ts',
  'navigation.browser.test.ts',
  'students.browser.test.ts',
  'admin-accounts.browser.test.ts',
  'languages.browser.test.ts',
  'multi-factor.browser.test.ts',
  'assessment.e2e.test.ts',
  'assessments.browser.test.ts',
  'student-flow.browser.test.ts',
  'lti-launch.browser.test.ts',
  'retention.browser.test.ts',
  'student-export.e2e.test.ts',
  // It lowers the admission ceiling while it runs: last, so that no other file's student waits in its line.
  'waiting-room.browser.test.ts',
];

/**
 * The shared files that run in the lane e2e-2, on a second shared product of its own, beside the lane e2e (the others
 * of SHARED_ORDER, on the first): two halves of about the same length, so that the second stage of `make test` does
 * not end with one browser lane alone on the machine. Each half keeps SHARED_ORDER's order, and each product starts
 * fresh, so the files that save assessment versions run in this half, after the few that read the first start.
 */
const SECOND_PRODUCT = [
  'languages.browser.test.ts',
  'multi-factor.browser.test.ts',
  'assessment.e2e.test.ts',
  'assessments.browser.test.ts',
  'student-flow.browser.test.ts',
  'lti-launch.browser.test.ts',
  'retention.browser.test.ts',
  'student-export.e2e.test.ts',
  'waiting-room.browser.test.ts',
];

class BrowserLaneSequencer extends Sequencer {
  async sort(tests) {
    const rank = (test) => {
      const index = SHARED_ORDER.indexOf(path.basename(test.path));
      return index === -1 ? SHARED_ORDER.length : index;
    };
    const usual = await super.sort(tests);
    return usual
      .map((test, position) => ({ test, position }))
      .sort((a, b) => rank(a.test) - rank(b.test) || a.position - b.position)
      .map(({ test }) => test);
  }
}

module.exports = BrowserLaneSequencer;
module.exports.SHARED_ORDER = SHARED_ORDER;
module.exports.SECOND_PRODUCT = SECOND_PRODUCT;
