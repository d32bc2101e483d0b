/*
 * A browser test that fails is run once more, its first failure printed (and its open pages pictured by
 * failure-environment.js). Two cores shared by the product, Chromium and the other test files can stall a
 * screen past any wait; a screen that is broken fails both times. `make test`'s last line counts the tests
 * that passed only on their second run, so a flaky one stays visible.
 */
jest.retryTimes(1, { logErrorsBeforeRetry: true });
