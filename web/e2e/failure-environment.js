/*
 * The browser tests' jest environment: Node's, plus a picture of every open page when a test fails. A wait
 * that times out says only what it waited for; the screen it found instead (a login page, an error, a
 * spinner) is what tells a flaky run from a broken screen. On failure, support.ts's hook saves each open
 * page's screenshot and text under test-results/e2e-failures and prints its address and opening text.
 */
const { TestEnvironment } = require('jest-environment-node');

class FailurePicturesEnvironment extends TestEnvironment {
  async handleTestEvent(event) {
    if (event.name !== 'test_fn_failure') return;
    const hook = this.global.__readinessOnTestFailure;
    if (typeof hook !== 'function') return;
    // A hook that fails or hangs must not hide the test's own failure.
    await Promise.race([
      Promise.resolve(hook(event.test.name)).catch(() => undefined),
      new Promise((resolve) => setTimeout(resolve, 10_000)),
    ]);
  }
}

module.exports = FailurePicturesEnvironment;
