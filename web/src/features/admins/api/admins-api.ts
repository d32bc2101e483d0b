import { z } from 'zod';
import { api, LIST } from '../../../lib/api';
import { request } from '../../../lib/api-request';
import type { ApiAnswer } from '../../../lib/api-types';
import { emailField, passwordField } from '../../auth/api/schemas';
import type { Admin, AdminRole, AdminStatus } from '../../auth/api/types';
import { adminT } from '../../../i18n/admin/admin-i18n';
import type { AdminMessageId } from '../../../i18n/admin/en';

/** The roles an admin can be given, each with its name's message (the screen says it in its language). */
export const ROLE_OPTIONS: { value: AdminRole; labelId: AdminMessageId }[] = [
  { value: 'admin', labelId: 'admins.role.admin' },
  { value: 'super_admin', labelId: 'admins.role.superAdmin' },
];

const nameField = z
  .string()
  .trim()
  .min(1, adminT('admins.form.nameRequired'))
  .min(2, adminT('admins.form.nameTooShort'));
// The select starts empty, so "no choice" is a real state with its own message.
const roleField = z.enum(['admin', 'super_admin'], { error: adminT('admins.form.roleRequired') });

export const createAdminSchema = z.object({
  name: nameField,
  email: emailField,
  password: passwordField,
  role: roleField,
});
export type CreateAdminInput = z.infer<typeof createAdminSchema>;

export const editAdminSchema = z.object({ name: nameField, email: emailField, role: roleField });
export type EditAdminInput = z.infer<typeof editAdminSchema>;

type AdminList = ApiAnswer<'/api/admin/admins', 'get'>;
type CreatedAdmin = ApiAnswer<'/api/admin/admins', 'post', 201>;
type EditedAdmin = ApiAnswer<'/api/admin/admins/{id}', 'put'>;
type PasswordReset = ApiAnswer<'/api/admin/admins/{id}/reset-password', 'post'>;

const adminTags = (admins: Admin[] = []) => [
  { type: 'Admin' as const, id: LIST },
  ...admins.map((a) => ({ type: 'Admin' as const, id: a._id })),
];

export const adminsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAdmins: build.query<Admin[], void>({
      query: () => request('/api/admin/admins', 'get'),
      transformResponse: (body: AdminList) => body.admins,
      providesTags: (admins) => adminTags(admins),
    }),
    createAdmin: build.mutation<Admin, CreateAdminInput>({
      query: (body) => request('/api/admin/admins', 'post', { body }),
      transformResponse: (body: CreatedAdmin) => body.admin,
      invalidatesTags: [{ type: 'Admin', id: LIST }],
    }),
    updateAdmin: build.mutation<Admin, EditAdminInput & { id: string }>({
      query: ({ id, ...body }) => request('/api/admin/admins/{id}', 'put', { path: { id }, body }),
      transformResponse: (body: EditedAdmin) => body.admin,
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Admin', id }],
    }),
    resetAdminPassword: build.mutation<string, string>({
      query: (id) => request('/api/admin/admins/{id}/reset-password', 'post', { path: { id } }),
      transformResponse: (body: PasswordReset) => body.message,
    }),
    setAdminStatus: build.mutation<void, { id: string; status: AdminStatus }>({
      query: ({ id, status }) =>
        request('/api/admin/admins/{id}/status', 'patch', { path: { id }, body: { status } }),
      // The spec leaves this answer open, so nothing is read from it; the list is fetched again.
      transformResponse: () => undefined,
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Admin', id }],
    }),
  }),
});

export const {
  useGetAdminsQuery,
  useCreateAdminMutation,
  useUpdateAdminMutation,
  useResetAdminPasswordMutation,
  useSetAdminStatusMutation,
} = adminsApi;
