import { z } from 'zod';
import { api, field, LIST } from '../../../lib/api';
import { emailField } from '../../auth/api/schemas';

export type StudentStatus = 'invited' | 'started' | 'completed';

/** How a student's latest invitation mail went, as the notification service recorded it. */
export interface InviteDelivery {
  studentId: string;
  status: 'queued' | 'sent' | 'failed';
  reason: string | null;
  at: string;
}

/** SPEC §3 Student, plus the accommodation and the invitation's delivery. */
export interface Student {
  _id: string;
  name: string;
  email: string;
  phoneNumber?: string;
  status: StudentStatus;
  inviteToken?: string;
  /** The link built by the server on PUBLIC_ORIGIN; the screen builds it itself when absent. */
  inviteUrl?: string;
  /** An invitation never started that passed its validity; resending renews it. */
  expired?: boolean;
  createdAt: string;
  extraTimePercent?: number;
}

export interface Pagination {
  currentPage: number;
  totalPages: number;
  totalResults: number;
}

export interface StudentListQuery {
  search: string;
  status: StudentStatus | 'all';
  page: number;
  limit: number;
}

export interface StudentList {
  students: Student[];
  pagination: Pagination;
}

/** One line of a CSV import that cannot be invited, with every reason found on it. */
export interface ImportProblem {
  line: number;
  email?: string;
  message: string;
}

export interface ImportReport {
  valid: number;
  imported?: number;
  problems: ImportProblem[];
}

export const STATUS_OPTIONS: { value: StudentListQuery['status']; label: string }[] = [
  { value: 'all', label: 'All Status' },
  { value: 'invited', label: 'Invited' },
  { value: 'started', label: 'In Progress' },
  { value: 'completed', label: 'Completed' },
];

export const statusLabel = (status: StudentStatus) =>
  STATUS_OPTIONS.find((o) => o.value === status)?.label ?? status;

// SPEC §5: name required, min 2; email required and well-formed; phoneNumber optional, no format rule.
const EXTRA_TIME_MESSAGE = 'Extra time must be a whole percentage from 0 to 300';
/** An accommodation: this much more time than the assessment's limit (0, 25, 50, 100 or any 0–300). */
export const extraTimeField = z
  .number({ error: EXTRA_TIME_MESSAGE })
  .int(EXTRA_TIME_MESSAGE)
  .min(0, EXTRA_TIME_MESSAGE)
  .max(300, EXTRA_TIME_MESSAGE);

export const inviteStudentSchema = z.object({
  name: z.string().trim().min(1, 'Name is required').min(2, 'Name must be at least 2 characters'),
  email: emailField,
  phoneNumber: z.string().trim(),
  extraTimePercent: extraTimeField,
});
export type InviteStudentInput = z.infer<typeof inviteStudentSchema>;

/** The link a student opens (SPEC §2): the server's, else built on the site's own origin. */
export const assessmentUrl = (student: Student): string | undefined =>
  student.inviteUrl ??
  (student.inviteToken
    ? new URL(`/assessment/${encodeURIComponent(student.inviteToken)}`, window.location.origin).href
    : undefined);

const byId = (id: string) => `admin/students/${encodeURIComponent(id)}`;

export const studentsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getStudents: build.query<StudentList, StudentListQuery>({
      query: ({ search, status, page, limit }) => ({
        url: 'admin/students',
        params: {
          ...(search.trim() ? { search: search.trim() } : {}),
          ...(status !== 'all' ? { status } : {}),
          page,
          limit,
        },
      }),
      transformResponse: (body: unknown) => {
        const students = field<Student[]>('students')(body) ?? [];
        const pagination = field<Pagination | undefined>('pagination')(body) ?? {
          currentPage: 1,
          totalPages: 1,
          totalResults: students.length,
        };
        return { students, pagination };
      },
      providesTags: (list) => [
        { type: 'Student' as const, id: LIST },
        ...(list?.students ?? []).map((s) => ({ type: 'Student' as const, id: s._id })),
      ],
    }),
    // The notification service answers for at most 200 students at a time: one table page.
    getInviteDeliveries: build.query<InviteDelivery[], string[]>({
      query: (studentIds) => ({
        url: 'admin/notifications/deliveries',
        params: { studentIds: studentIds.join(',') },
      }),
      transformResponse: (body: unknown) => field<InviteDelivery[] | undefined>('deliveries')(body) ?? [],
      providesTags: (_r, _e, ids) => ids.map((id) => ({ type: 'Student' as const, id })),
    }),
    inviteStudent: build.mutation<Student | undefined, InviteStudentInput>({
      // SPEC §7 sends name, email and phoneNumber; the optional fields go only when they say something.
      query: ({ name, email, phoneNumber, extraTimePercent }) => ({
        url: 'admin/students/invite',
        method: 'POST',
        body: {
          name,
          email,
          ...(phoneNumber ? { phoneNumber } : {}),
          ...(extraTimePercent ? { extraTimePercent } : {}),
        },
      }),
      transformResponse: field<Student | undefined>('student'),
      invalidatesTags: [{ type: 'Student', id: LIST }, 'Dashboard'],
    }),
    resendInvitation: build.mutation<void, string>({
      query: (id) => ({ url: `${byId(id)}/resend-assessment`, method: 'POST' }),
      // SPEC §7 leaves this answer open; nothing is read from it.
      transformResponse: () => undefined,
      invalidatesTags: (_r, _e, id) => [{ type: 'Student', id }],
    }),
    setExtraTime: build.mutation<Student | undefined, { id: string; extraTimePercent: number }>({
      query: ({ id, extraTimePercent }) => ({ url: byId(id), method: 'PATCH', body: { extraTimePercent } }),
      transformResponse: field<Student | undefined>('student'),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Student', id }],
    }),
    deleteStudent: build.mutation<void, string>({
      query: (id) => ({ url: byId(id), method: 'DELETE' }),
      transformResponse: () => undefined,
      // The student's results go with them: a results list or item analysis fetched before must not show them.
      invalidatesTags: [{ type: 'Student', id: LIST }, { type: 'Result', id: LIST }, 'Dashboard'],
    }),
    importStudents: build.mutation<ImportReport, { file: File; dryRun: boolean }>({
      query: ({ file, dryRun }) => {
        const body = new FormData();
        body.append('file', file);
        return {
          url: 'admin/students/import',
          method: 'POST',
          body,
          params: dryRun ? { dryRun: 'true' } : {},
        };
      },
      transformResponse: (body: unknown) => ({
        valid: field<number | undefined>('valid')(body) ?? 0,
        imported: field<number | undefined>('imported')(body),
        problems: field<ImportProblem[] | undefined>('problems')(body) ?? [],
      }),
      invalidatesTags: (_r, _e, { dryRun }) => (dryRun ? [] : [{ type: 'Student', id: LIST }, 'Dashboard']),
    }),
  }),
});

export const {
  useGetStudentsQuery,
  useGetInviteDeliveriesQuery,
  useInviteStudentMutation,
  useResendInvitationMutation,
  useSetExtraTimeMutation,
  useDeleteStudentMutation,
  useImportStudentsMutation,
} = studentsApi;
