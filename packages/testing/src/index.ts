export { servers, serverUrl, reachable, type Servers } from './servers';
export {
  boundRoutingKeys,
  createTestDatabase,
  createTestVhost,
  createTestRedis,
  rewriteUrlPort,
  type TestDatabase,
  type TestVhost,
  type TestRedis,
} from './resources';
export { startTcpProxy, type TcpProxy } from './tcp-proxy';
export { eventually } from './eventually';
export { holdTheEventLoop, holdTheEventLoopFor } from './event-loop';
export { lateBound } from './late-bound';
export { capturingLogger } from './logs';
export { documentedOperations, servedApiDocument } from './openapi';
export { freePort } from './ports';
export { signTestJwt, type TestJwtOptions } from './tokens';
export {
  startServiceUnderTest,
  testAdminToken,
  type SeenEvent,
  type ServiceUnderTest,
  type ServiceUnderTestOptions,
} from './service-under-test';
export {
  startTestOidcProvider,
  type TestOidcProvider,
  type TestOidcProviderOptions,
  type TestPerson,
} from './oidc-provider';
export { createAdminPastFirstSignIn, type NewAdmin } from './admins';
export { LEARNER, startTestLms, type TestLms } from './lti-platform';
export { secondCall, writeTimesSection, type MeasuredCall, type TimedCall } from './scale';
