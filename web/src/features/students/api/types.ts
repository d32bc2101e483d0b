import type { ApiAnswer, ApiQuery } from '../../../lib/api-types';

/*
 * The shapes the student service (and the notification service's delivery log) answer the admin screens
 * with, as their operations declare them (the generated `api-schema.ts`).
 */

/** `GET /api/admin/students`: one page of students, newest first. */
export type StudentList = ApiAnswer<'/api/admin/students', 'get'>;
/** SPEC §3 Student, plus the accommodation and the invitation's link and expiry. */
export type Student = StudentList['students'][number];
export type StudentStatus = Student['status'];
export type StatusFilter = Required<ApiQuery<'/api/admin/students', 'get'>>['status'];

/** How a student's latest invitation mail went: `GET /api/admin/notifications/deliveries`. */
export type DeliveryLog = ApiAnswer<'/api/admin/notifications/deliveries', 'get'>;
export type InviteDelivery = DeliveryLog['deliveries'][number];

/** `POST /api/admin/students/import`: every line that cannot be invited, with every reason found on it. */
export type ImportReport = ApiAnswer<'/api/admin/students/import', 'post'>;
export type ImportProblem = ImportReport['problems'][number];

export type InviteAnswer = ApiAnswer<'/api/admin/students/invite', 'post', 201>;
/** `POST /api/admin/students/{id}/remind`: the student, reminded. */
export type RemindAnswer = ApiAnswer<'/api/admin/students/{id}/remind', 'post', 202>;
/** `POST /api/admin/students/remind`: how many students of the filter were (with dryRun: would be) reminded. */
export type RemindCount = ApiAnswer<'/api/admin/students/remind', 'post', 202>;
/** `GET` and `PUT /api/admin/students/reminder-settings`: when the job reminds students who have not started. */
export type ReminderSettings = ApiAnswer<'/api/admin/students/reminder-settings', 'get'>;
export type ExtraTimeAnswer = ApiAnswer<'/api/admin/students/{id}', 'patch'>;
/** `GET /api/admin/students/{id}/export/status`: the newest data export, and which services have answered. */
export type StudentExport = ApiAnswer<'/api/admin/students/{id}/export/status', 'get'>['export'];
