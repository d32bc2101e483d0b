import { api } from '../../../lib/api';
import { request } from '../../../lib/api-request';
import type { ApiAnswer, ApiBody } from '../../../lib/api-types';
import type { PasskeyOptions, TotpEnrolment } from './auth-api';

export type SecurityStatus = ApiAnswer<'/api/auth/mfa', 'get'>;
export type SecuritySettings = ApiAnswer<'/api/admin/security-settings', 'get'>;
export type Passkey = SecurityStatus['passkeys'][number];
export type AddedPasskey = ApiAnswer<'/api/auth/mfa/passkeys', 'post', 201>;
export type StepUpMethod = SecurityStatus['reauthentication']['methods'][number];

/** The admin's own second factors, the super admins' policy, and their reset of another admin's factors. */
export const multiFactorApi = api.injectEndpoints({
  endpoints: (build) => ({
    getSecurityStatus: build.query<SecurityStatus, void>({
      query: () => request('/api/auth/mfa', 'get'),
      providesTags: ['SecondFactor'],
    }),
    beginTotpEnrolment: build.mutation<TotpEnrolment, void>({
      query: () => request('/api/auth/mfa/totp', 'post'),
    }),
    confirmTotpEnrolment: build.mutation<string[], { code: string }>({
      query: (body) => request('/api/auth/mfa/totp/confirm', 'post', { body }),
      transformResponse: (body: ApiAnswer<'/api/auth/mfa/totp/confirm', 'post'>) => body.recoveryCodes,
      invalidatesTags: ['SecondFactor'],
    }),
    disableTotp: build.mutation<void, { code: string }>({
      query: (body) => request('/api/auth/mfa/totp/disable', 'post', { body }),
      invalidatesTags: ['SecondFactor'],
    }),
    beginPasskeyRegistration: build.mutation<PasskeyOptions, void>({
      query: () => request('/api/auth/mfa/passkeys/options', 'post'),
      transformResponse: (body: ApiAnswer<'/api/auth/mfa/passkeys/options', 'post'>) => body.options,
    }),
    addPasskey: build.mutation<AddedPasskey, ApiBody<'/api/auth/mfa/passkeys', 'post'>>({
      query: (body) => request('/api/auth/mfa/passkeys', 'post', { body }),
      invalidatesTags: ['SecondFactor'],
    }),
    removePasskey: build.mutation<void, string>({
      query: (id) => request('/api/auth/mfa/passkeys/{id}', 'delete', { path: { id } }),
      invalidatesTags: ['SecondFactor'],
    }),
    reauthenticate: build.mutation<
      ApiAnswer<'/api/auth/reauthenticate', 'post'>,
      ApiBody<'/api/auth/reauthenticate', 'post'>
    >({
      query: (body) => request('/api/auth/reauthenticate', 'post', { body }),
    }),
    beginReauthenticationPasskey: build.mutation<PasskeyOptions, void>({
      query: () => request('/api/auth/reauthenticate/passkey-options', 'post'),
      transformResponse: (body: ApiAnswer<'/api/auth/reauthenticate/passkey-options', 'post'>) =>
        body.options,
    }),
    replaceRecoveryCodes: build.mutation<string[], void>({
      query: () => request('/api/auth/mfa/recovery-codes', 'post'),
      transformResponse: (body: ApiAnswer<'/api/auth/mfa/recovery-codes', 'post'>) => body.recoveryCodes,
      invalidatesTags: ['SecondFactor'],
    }),
    getSecuritySettings: build.query<SecuritySettings, void>({
      query: () => request('/api/admin/security-settings', 'get'),
      providesTags: ['SecondFactor'],
    }),
    setMfaRequired: build.mutation<SecuritySettings, boolean>({
      query: (mfaRequired) => request('/api/admin/security-settings', 'put', { body: { mfaRequired } }),
      // The box shows the choice at once, and goes back if the server refuses it.
      async onQueryStarted(mfaRequired, { dispatch, queryFulfilled }) {
        const patch = dispatch(
          multiFactorApi.util.updateQueryData('getSecuritySettings', undefined, (draft) => {
            draft.mfaRequired = mfaRequired;
          }),
        );
        await queryFulfilled.catch(() => patch.undo());
      },
      invalidatesTags: ['SecondFactor'],
    }),
    resetAdminFactors: build.mutation<void, string>({
      query: (id) => request('/api/admin/admins/{id}/reset-mfa', 'post', { path: { id } }),
      transformResponse: () => undefined,
      invalidatesTags: (_r, _e, id) => [{ type: 'Admin', id }],
    }),
  }),
});

export const {
  useGetSecurityStatusQuery,
  useBeginTotpEnrolmentMutation,
  useConfirmTotpEnrolmentMutation,
  useDisableTotpMutation,
  useBeginPasskeyRegistrationMutation,
  useAddPasskeyMutation,
  useRemovePasskeyMutation,
  useReauthenticateMutation,
  useBeginReauthenticationPasskeyMutation,
  useReplaceRecoveryCodesMutation,
  useGetSecuritySettingsQuery,
  useSetMfaRequiredMutation,
  useResetAdminFactorsMutation,
} = multiFactorApi;
