import { z } from 'zod';
import { api, field, LIST } from '../../../lib/api';
import { emailField, passwordField } from '../../auth/api/schemas';
import type { Admin, AdminRole, AdminStatus } from '../../auth/api/types';

export const ROLE_OPTIONS: { value: AdminRole; label: string }[] = [
  { value: 'admin', label: 'Regular Admin' },
  { value: 'super_admin', label: 'Super Admin' },
];

const nameField = z.string().trim().min(1, 'Name is required').min(2, 'Name must be at least 2 characters');
// The select starts empty, so "no choice" is a real state with its own message.
const roleField = z.enum(['admin', 'super_admin'], { error: 'Role is required' });

export const createAdminSchema = z.object({
  name: nameField,
  email: emailField,
  password: passwordField,
  role: roleField,
});
export type CreateAdminInput = z.infer<typeof createAdminSchema>;

export const editAdminSchema = z.object({ name: nameField, email: emailField, role: roleField });
export type EditAdminInput = z.infer<typeof editAdminSchema>;

const adminTags = (admins: Admin[] = []) => [
  { type: 'Admin' as const, id: LIST },
  ...admins.map((a) => ({ type: 'Admin' as const, id: a._id })),
];

export const adminsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAdmins: build.query<Admin[], void>({
      query: () => 'admin/admins',
      transformResponse: field<Admin[]>('admins'),
      providesTags: (admins) => adminTags(admins),
    }),
    createAdmin: build.mutation<Admin, CreateAdminInput>({
      query: (body) => ({ url: 'admin/admins', method: 'POST', body }),
      transformResponse: field<Admin>('admin'),
      invalidatesTags: [{ type: 'Admin', id: LIST }],
    }),
    updateAdmin: build.mutation<Admin, EditAdminInput & { id: string }>({
      query: ({ id, ...body }) => ({ url: `admin/admins/${encodeURIComponent(id)}`, method: 'PUT', body }),
      transformResponse: field<Admin>('admin'),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Admin', id }],
    }),
    resetAdminPassword: build.mutation<string | undefined, string>({
      query: (id) => ({ url: `admin/admins/${encodeURIComponent(id)}/reset-password`, method: 'POST' }),
      transformResponse: field<string | undefined>('message'),
    }),
    setAdminStatus: build.mutation<Admin | undefined, { id: string; status: AdminStatus }>({
      query: ({ id, status }) => ({
        url: `admin/admins/${encodeURIComponent(id)}/status`,
        method: 'PATCH',
        body: { status },
      }),
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
