/**
 * The service runtime: a service is a module that declares its config, migrations, events, adapters and OpenAPI
 * (`defineService`), and one runtime wires it (`startService`, `runMain`, `createServiceHost`).
 */
export { openServiceDatabase, startServiceBus } from './adapters';
export {
  defineService,
  on,
  type EventMeta,
  type EventSubscription,
  type ServiceContext,
  type ServiceModule,
  type ServiceParts,
  type ServiceUses,
} from './service';
export {
  runMain,
  startService,
  type RunningService,
  type SharedAdapters,
  type StartServiceOptions,
} from './run';
export { createServiceHost, type ServiceHost } from './host';
export { migrationDirs } from './service-adapters';
export { STUDENTS_WAITING_KEY, startYielding, type YieldingOptions } from './yielding';
export { createJobWaker, every, startJobs, type JobWaker, type PeriodicJob } from './jobs';
export {
  EXPORT_PATH,
  answerStudentExport,
  type ExportedStudent,
  type ExportingService,
  type StudentExportFile,
} from './student-export';
