import { api } from '../../../lib/api';
import type {
  Admin,
  ChangePasswordAnswer,
  ChangePasswordBody,
  MeAnswer,
  SessionResponse,
  SignInOptions,
  SsoSession,
} from './types';
import type { LoginInput } from './schemas';

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<SessionResponse, LoginInput>({
      query: (body) => ({ url: 'auth/login', method: 'POST', body }),
    }),
    me: build.query<Admin, void>({
      query: () => 'auth/me',
      transformResponse: (body: MeAnswer) => body.admin,
      providesTags: ['Session'],
    }),
    logout: build.mutation<void, void>({
      query: () => ({ url: 'auth/logout', method: 'POST' }),
    }),
    signInOptions: build.query<SignInOptions, void>({
      query: () => 'auth/sign-in-options',
    }),
    /** Takes the session a single sign-on prepared; the browser's HttpOnly cookie says whose. */
    takeSsoSession: build.mutation<SsoSession, void>({
      query: () => ({ url: 'auth/oidc/session', method: 'POST' }),
    }),
    changePassword: build.mutation<ChangePasswordAnswer, ChangePasswordBody>({
      query: (body) => ({ url: 'auth/change-password', method: 'POST', body }),
    }),
  }),
});

export const {
  useLoginMutation,
  useLogoutMutation,
  useChangePasswordMutation,
  useSignInOptionsQuery,
  useTakeSsoSessionMutation,
} = authApi;
