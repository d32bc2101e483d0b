import { z } from 'zod';
import { api, LIST } from '../../../lib/api';
import { request } from '../../../lib/api-request';
import { wholeNumberField } from '../../../lib/forms';
import { emailField } from '../../auth/api/schemas';
import { adminT } from '../../../i18n/admin/admin-i18n';
import type {
  DeliveryLog,
  ExtraTimeAnswer,
  ImportReport,
  InviteAnswer,
  InviteDelivery,
  ReminderSettings,
  RemindAnswer,
  RemindCount,
  StatusFilter,
  Student,
  StudentExport,
  StudentList,
  StudentStatus,
} from './types';

export interface StudentListQuery {
  search: string;
  status: StatusFilter;
  page: number;
  limit: number;
}

export const STATUS_OPTIONS: { value: StudentListQuery['status']; label: string }[] = [
  { value: 'all', label: adminT('students.status.all') },
  { value: 'invited', label: adminT('students.status.invited') },
  { value: 'started', label: adminT('students.status.started') },
  { value: 'completed', label: adminT('students.status.completed') },
];

export const statusLabel = (status: StudentStatus) =>
  STATUS_OPTIONS.find((o) => o.value === status)?.label ?? status;

// SPEC §5: name required, min 2; email required and well-formed; phoneNumber optional, no format rule.
const EXTRA_TIME_MESSAGE = adminT('students.extraTime.invalid');
/** An accommodation: this much more time than the assessment's limit (0, 25, 50, 100 or any 0–300). */
export const extraTimeField = wholeNumberField(0, 300, EXTRA_TIME_MESSAGE);

export const inviteStudentSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, adminT('students.invite.nameRequired'))
    .min(2, adminT('students.invite.nameTooShort')),
  email: emailField,
  phoneNumber: z.string().trim(),
  extraTimePercent: extraTimeField,
  /** The student's language; empty: the one their browser asks for. */
  language: z.enum(['', 'en', 'es', 'fr', 'pt', 'ar']),
});
export type InviteStudentInput = z.infer<typeof inviteStudentSchema>;

const DAYS_MESSAGE = adminT('students.reminderSettings.daysInvalid');
/** Whole numbers of days from 1 to 365, separated by commas; empty: none. */
export const reminderDays = (text: string) =>
  text
    .split(',')
    .map((d) => d.trim())
    .filter(Boolean)
    .map(Number);

const whole = (message: string, max: number) =>
  z.number({ error: message }).int(message).min(0, message).max(max, message);

export const reminderSettingsSchema = z.object({
  afterDays: z
    .string()
    .refine(
      (text) =>
        /^[\d,\s]*$/.test(text) &&
        reminderDays(text).length <= 10 &&
        reminderDays(text).every((d) => Number.isInteger(d) && d >= 1 && d <= 365),
      DAYS_MESSAGE,
    ),
  beforeExpiryHours: whole(adminT('students.reminderSettings.hoursInvalid'), 720),
  max: whole(adminT('students.reminderSettings.maxInvalid'), 20),
});
export type ReminderSettingsInput = z.infer<typeof reminderSettingsSchema>;

export const studentsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getStudents: build.query<StudentList, StudentListQuery>({
      query: ({ search, status, page, limit }) =>
        request('/api/admin/students', 'get', {
          query: {
            ...(search.trim() ? { search: search.trim() } : {}),
            ...(status !== 'all' ? { status } : {}),
            page,
            limit,
          },
        }),
      providesTags: (list) => [
        { type: 'Student' as const, id: LIST },
        ...(list?.students ?? []).map((s) => ({ type: 'Student' as const, id: s._id })),
      ],
    }),
    // The notification service answers for at most 200 students at a time: one table page.
    getInviteDeliveries: build.query<InviteDelivery[], string[]>({
      query: (studentIds) =>
        request('/api/admin/notifications/deliveries', 'get', {
          query: { studentIds: studentIds.join(',') },
        }),
      transformResponse: (body: DeliveryLog) => body.deliveries,
      providesTags: (_r, _e, ids) => ids.map((id) => ({ type: 'Student' as const, id })),
    }),
    inviteStudent: build.mutation<Student, InviteStudentInput>({
      // SPEC §7 sends name, email and phoneNumber; the optional fields go only when they say something.
      query: ({ name, email, phoneNumber, extraTimePercent, language }) =>
        request('/api/admin/students/invite', 'post', {
          body: {
            name,
            email,
            ...(phoneNumber ? { phoneNumber } : {}),
            ...(extraTimePercent ? { extraTimePercent } : {}),
            ...(language ? { language } : {}),
          },
        }),
      transformResponse: (body: InviteAnswer) => body.student,

      invalidatesTags: [{ type: 'Student', id: LIST }, 'Dashboard'],
    }),
    resendInvitation: build.mutation<void, string>({
      query: (id) => request('/api/admin/students/{id}/resend-assessment', 'post', { path: { id } }),
      // SPEC §7 leaves this answer open; nothing is read from it.
      transformResponse: () => undefined,
      invalidatesTags: (_r, _e, id) => [{ type: 'Student', id }],
    }),
    remindStudent: build.mutation<Student, string>({
      query: (id) => request('/api/admin/students/{id}/remind', 'post', { path: { id } }),
      transformResponse: (body: RemindAnswer) => body.student,
      invalidatesTags: (_r, _e, id) => [{ type: 'Student', id }],
    }),
    /** Every student of the list's filter who can be reminded now; `dryRun` only counts them (the confirmation). */
    remindStudents: build.mutation<number, Pick<StudentListQuery, 'search' | 'status'> & { dryRun: boolean }>(
      {
        query: ({ search, status, dryRun }) =>
          request('/api/admin/students/remind', 'post', {
            query: dryRun ? { dryRun: 'true' } : {},
            body: { ...(search.trim() ? { search: search.trim() } : {}), status },
          }),
        transformResponse: (body: RemindCount) => body.count,
        invalidatesTags: (_r, _e, { dryRun }) => (dryRun ? [] : [{ type: 'Student', id: LIST }]),
      },
    ),
    getReminderSettings: build.query<ReminderSettings, void>({
      query: () => request('/api/admin/students/reminder-settings', 'get'),
      providesTags: ['ReminderSettings'],
    }),
    saveReminderSettings: build.mutation<
      ReminderSettings,
      Pick<ReminderSettings, 'afterDays' | 'beforeExpiryHours' | 'max'>
    >({
      query: (body) => request('/api/admin/students/reminder-settings', 'put', { body }),
      invalidatesTags: ['ReminderSettings'],
    }),
    setExtraTime: build.mutation<Student, { id: string; extraTimePercent: number }>({
      query: ({ id, extraTimePercent }) =>
        request('/api/admin/students/{id}', 'patch', { path: { id }, body: { extraTimePercent } }),
      transformResponse: (body: ExtraTimeAnswer) => body.student,
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Student', id }],
    }),
    /** The student's newest data export; an error (404) while none was asked for or it expired. */
    getStudentExport: build.query<StudentExport, string>({
      query: (id) => request('/api/admin/students/{id}/export/status', 'get', { path: { id } }),
      transformResponse: (body: { export: StudentExport }) => body.export,
      providesTags: (_r, _e, id) => [{ type: 'StudentExport', id }],
    }),
    /** Asks every service for what it holds about the student (audited); a gathering or ready export is kept. */
    requestStudentExport: build.mutation<StudentExport, string>({
      query: (id) => request('/api/admin/students/{id}/export', 'post', { path: { id } }),
      transformResponse: (body: { export: StudentExport }) => body.export,
      invalidatesTags: (_r, _e, id) => [{ type: 'StudentExport', id }],
    }),
    deleteStudent: build.mutation<void, string>({
      query: (id) => request('/api/admin/students/{id}', 'delete', { path: { id } }),
      transformResponse: () => undefined,
      // The student's results go with them: a results list or item analysis fetched before must not show them.

      invalidatesTags: [{ type: 'Student', id: LIST }, { type: 'Result', id: LIST }, 'Dashboard'],
    }),
    importStudents: build.mutation<ImportReport, { file: File; dryRun: boolean }>({
      query: ({ file, dryRun }) => {
        const form = new FormData();
        form.append('file', file);
        return request('/api/admin/students/import', 'post', {
          form,
          query: dryRun ? { dryRun: 'true' } : {},
        });
      },
      invalidatesTags: (_r, _e, { dryRun }) => (dryRun ? [] : [{ type: 'Student', id: LIST }, 'Dashboard']),
    }),
  }),
});

export const {
  useGetStudentsQuery,
  useGetInviteDeliveriesQuery,
  useInviteStudentMutation,
  useResendInvitationMutation,
  useGetReminderSettingsQuery,
  useSaveReminderSettingsMutation,
  useRemindStudentMutation,
  useRemindStudentsMutation,
  useSetExtraTimeMutation,
  useDeleteStudentMutation,
  useImportStudentsMutation,
  useGetStudentExportQuery,
  useRequestStudentExportMutation,
} = studentsApi;

/** The ready export's ZIP, for `useFileDownload`. */
export const studentExportRequest = (id: string) =>
  request('/api/admin/students/{id}/export', 'get', { path: { id } });

/** `Ada Lovelace` → `Ada-Lovelace-data-2026-12-02.zip`, as the service names it. */
export const studentExportFileName = (name: string) =>
  `${name.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '') || 'student'}-data-${new Date().toISOString().slice(0, 10)}.zip`;
