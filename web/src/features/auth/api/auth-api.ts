import { api } from '../../../lib/api';
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
      query: (body) => ({ url: 'auth/login', method: 'POST', body }),
    }),
    completeSecondFactor: build.mutation<SecondFactorSession, { challenge: string } & SecondFactorProof>({
      query: (body) => ({ url: 'auth/login/mfa', method: 'POST', body }),
    }),
    beginSignInEnrolment: build.mutation<TotpEnrolment, { challenge: string }>({
      query: (body) => ({ url: 'auth/login/mfa/enrolment', method: 'POST', body }),
    }),
    secondFactorPasskeyOptions: build.mutation<PasskeyOptions, { challenge: string }>({
      query: (body) => ({ url: 'auth/login/mfa/passkey-options', method: 'POST', body }),
      transformResponse: (body: ApiAnswer<'/api/auth/login/mfa/passkey-options', 'post'>) => body.options,
    }),
    passkeySignInOptions: build.mutation<PasskeyOptions, void>({
      query: () => ({ url: 'auth/login/passkey/options', method: 'POST' }),
      transformResponse: (body: ApiAnswer<'/api/auth/login/passkey/options', 'post'>) => body.options,
    }),
    signInWithPasskey: build.mutation<SecondFactorSession, ApiBody<'/api/auth/login/passkey', 'post'>>({
      query: (body) => ({ url: 'auth/login/passkey', method: 'POST', body }),
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
  useCompleteSecondFactorMutation,
  useBeginSignInEnrolmentMutation,
  useSecondFactorPasskeyOptionsMutation,
  usePasskeySignInOptionsMutation,
  useSignInWithPasskeyMutation,
} = authApi;
