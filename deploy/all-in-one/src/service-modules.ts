// Written from proto/src/topology.ts by deploy/tools/topology.mjs (`make topology`): do not edit.
import { assessmentService } from '@readiness/assessment';
import { authService } from '@readiness/auth';
import { gatewayService } from '@readiness/gateway';
import { integrationsService } from '@readiness/integrations';
import { notificationService } from '@readiness/notification';
import { reportService } from '@readiness/report';
import { resultsService } from '@readiness/results';
import { studentService } from '@readiness/student';

/** Every service module of the topology table, by its name (the package `@readiness/<name>` exports `<name>Service`). */
export const serviceModules = {
  auth: authService,
  assessment: assessmentService,
  student: studentService,
  results: resultsService,
  report: reportService,
  notification: notificationService,
  integrations: integrationsService,
  gateway: gatewayService,
} as const;
