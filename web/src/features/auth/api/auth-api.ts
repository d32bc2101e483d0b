import { api } from '../../../lib/api';
import { request } from '../../../lib/api-request';
import type { ApiAnswer, ApiBody } from '../../../lib/api-types';
import type {
  Admin,
  ChangePasswordAnswer,
  ChangePasswordBody,
  MeAnswer,
  SignInOptions,
  SsoSession,
} from './types';
import type { LoginInput } from './schemas';

type LoginAnswer = ApiAnswer<'/api/auth/login', 'post'>;
/** What the password step answers, instead of a session, when a second factor is needed. */
export type SecondFactorStep = Extract<LoginAnswer, { mfaRequired: true }>;
export type SecondFactorProof =
  | { code: string }
  | { recoveryCode: string }
  | { passkey: ApiBody<'/api/auth/login/passkey', 'post'>['passkey'] };
/** The options for `navigator.credentials.get()` / `.create()`, as the server made them. */
export type PasskeyOptions = ApiAnswer<'/api/auth/login/passkey/options', 'post'>['options'];
/** A session opened by the second step; with the recovery codes when the admin enrolled in this sign-in. */
export type SecondFactorSession = ApiAnswer<'/api/auth/login/mfa', 'post'>;
export type TotpEnrolment = ApiAnswer<'/api/auth/login/mfa/enrolment', 'post'>;

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<LoginAnswer, LoginInput>({
      query: (body) => request('/api/auth/login', 'post', { body }),
    }),
    completeSecondFactor: build.mutation<SecondFactorSession, { challenge: string } & SecondFactorProof>({
      query: (body) => request('/api/auth/login/mfa', 'post', { body }),
    }),
    beginSignInEnrolment: build.mutation<TotpEnrolment, { challenge: string }>({
      query: (body) => request('/api/auth/login/mfa/enrolment', 'post', { body }),
    }),
    secondFactorPasskeyOptions: build.mutation<PasskeyOptions, { challenge: string }>({
      query: (body) => request('/api/auth/login/mfa/passkey-options', 'post', { body }),
      transformResponse: (body: ApiAnswer<'/api/auth/login/mfa/passkey-options', 'post'>) => body.options,
    }),
    passkeySignInOptions: build.mutation<PasskeyOptions, void>({
      query: () => request('/api/auth/login/passkey/options', 'post'),
      transformResponse: (body: ApiAnswer<'/api/auth/login/passkey/options', 'post'>) => body.options,
    }),
    signInWithPasskey: build.mutation<SecondFactorSession, ApiBody<'/api/auth/login/passkey', 'post'>>({
      query: (body) => request('/api/auth/login/passkey', 'post', { body }),
    }),
    me: build.query<Admin, void>({
      query: () => request('/api/auth/me', 'get'),
      transformResponse: (body: MeAnswer) => body.admin,
      providesTags: ['Session'],
    }),
    logout: build.mutation<void, void>({
      query: () => request('/api/auth/logout', 'post'),
    }),
    signInOptions: build.query<SignInOptions, void>({
      query: () => request('/api/auth/sign-in-options', 'get'),
    }),
    /** Takes the session a single sign-on prepared; the browser's HttpOnly cookie says whose. */
    takeSsoSession: build.mutation<SsoSession, void>({
      query: () => request('/api/auth/oidc/session', 'post'),
    }),
    changePassword: build.mutation<ChangePasswordAnswer, ChangePasswordBody>({
      query: (body) => request('/api/auth/change-password', 'post', { body }),
    }),
  }),
});

export const {
  useLoginMutation,
  useLogoutMutation,
  useChangePasswordMutation,
  useSignInOptionsQuery,
  useTakeSsoSessionMutation,
  useCompleteSecondFactorMutation,
  useBeginSignInEnrolmentMutation,
  useSecondFactorPasskeyOptionsMutation,
  usePasskeySignInOptionsMutation,
  useSignInWithPasskeyMutation,
} = authApi;
