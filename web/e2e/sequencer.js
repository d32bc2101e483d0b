/*
 * The browser lanes' order. The files of a lane share one product (shared-product.ts), so those that read the
 * installation as a first start left it (the dashboard at zero, the seeded assessment and its translations) run before
 * those that save assessment versions; the files with a product of their own come last, in jest's usual order. A lane
 * runs one file at a time (tests/tools/run-lanes.mjs), so this order is the order they meet its product in.
 */
const Sequencer = require('@jest/test-sequencer').default;
const path = require('node:path');

/**
 * The shared files, in two halves of about the same length: the lane e2e runs the first on its shared product, the lane
 * e2e-2 the second on a shared product of its own (tests/tools/run-lanes.mjs), so that the second stage of `make test`
 * does not end with one browser lane alone on the machine. Each product starts fresh, and no file of the first half
 * saves an assessment version; so the first half, then the second, is also the order for one product (a run by hand).
 */
const FIRST_PRODUCT = [
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
];
const SECOND_PRODUCT = [
  // It reads the seeded assessment: before the files that save versions.
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
const SHARED_ORDER = [...FIRST_PRODUCT, ...SECOND_PRODUCT];

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
module.exports.FIRST_PRODUCT = FIRST_PRODUCT;
module.exports.SECOND_PRODUCT = SECOND_PRODUCT;
