import { api, field } from '../../../lib/api';
import type { ApiAnswer } from '../../../lib/api-types';
import type { Admin } from './types';
import type { LoginInput } from './schemas';

export interface SessionResponse {
  token: string;
  admin: Admin;
}

/** What the password step answers, instead of a session, when a second factor is needed. */
export type SecondFactorStep = Extract<ApiAnswer<'/api/auth/login', 'post'>, { mfaRequired: true }>;
export type SecondFactorProof = { code: string } | { recoveryCode: string };
/** A session opened by the second step; with the recovery codes when the admin enrolled in this sign-in. */
export type SecondFactorSession = SessionResponse & { recoveryCodes?: string[] };
export type TotpEnrolment = ApiAnswer<'/api/auth/login/mfa/enrolment', 'post'>;

const isSecondFactorStep = (body: unknown): body is SecondFactorStep =>
  typeof body === 'object' && body !== null && 'mfaRequired' in body && body.mfaRequired === true;

const session = (body: unknown): SessionResponse => ({
  token: field<string>('token')(body),
  admin: field<Admin>('admin')(body),
});

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<SessionResponse | SecondFactorStep, LoginInput>({
      query: (body) => ({ url: 'auth/login', method: 'POST', body }),
      transformResponse: (body: unknown) => (isSecondFactorStep(body) ? body : session(body)),
    }),
    completeSecondFactor: build.mutation<SecondFactorSession, { challenge: string } & SecondFactorProof>({
      query: (body) => ({ url: 'auth/login/mfa', method: 'POST', body }),
      transformResponse: (body: unknown) => ({
        ...session(body),
        recoveryCodes: field<string[] | undefined>('recoveryCodes')(body),
      }),
    }),
    beginSignInEnrolment: build.mutation<TotpEnrolment, { challenge: string }>({
      query: (body) => ({ url: 'auth/login/mfa/enrolment', method: 'POST', body }),
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

export const {
  useLoginMutation,
  useLogoutMutation,
  useChangePasswordMutation,
  useCompleteSecondFactorMutation,
  useBeginSignInEnrolmentMutation,
} = authApi;
