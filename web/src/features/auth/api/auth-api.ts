import { api, field } from '../../../lib/api';
import type { Admin } from './types';
import type { LoginInput } from './schemas';

export interface SessionResponse {
  token: string;
  admin: Admin;
}

const session = (body: unknown): SessionResponse => ({
  token: field<string>('token')(body),
  admin: field<Admin>('admin')(body),
});

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<SessionResponse, LoginInput>({
      query: (body) => ({ url: 'auth/login', method: 'POST', body }),
      transformResponse: session,
    }),
    me: build.query<Admin, void>({
      query: () => 'auth/me',
      transformResponse: field<Admin>('admin'),
      providesTags: ['Session'],
    }),
    logout: build.mutation<void, void>({
      query: () => ({ url: 'auth/logout', method: 'POST' }),
    }),
    changePassword: build.mutation<SessionResponse, { currentPassword: string; newPassword: string }>({
      query: (body) => ({ url: 'auth/change-password', method: 'POST', body }),
      transformResponse: session,
    }),
  }),
});

export const { useLoginMutation, useLogoutMutation, useChangePasswordMutation } = authApi;
