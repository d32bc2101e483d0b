import { z } from 'zod';
import { api, LIST } from '../../../lib/api';
import { request } from '../../../lib/api-request';
import type { ApiAnswer, ApiBody } from '../../../lib/api-types';
import { adminT } from '../../../i18n/admin/admin-i18n';

type PlatformList = ApiAnswer<'/api/admin/lti/platforms', 'get'>;
type SavedPlatform = ApiAnswer<'/api/admin/lti/platforms', 'post', 201>;
type EditedPlatform = ApiAnswer<'/api/admin/lti/platforms/{id}', 'put'>;
type RegistrationLink = ApiAnswer<'/api/admin/lti/registration-links', 'post', 201>;
type GradeAnswer = ApiAnswer<'/api/admin/lti/grades/{resultId}', 'get'>;
type GradeQueued = ApiAnswer<'/api/admin/lti/grades/{resultId}/send', 'post', 202>;

/** A result's score as sent to the gradebook of the LMS its student came from. */
export type LmsGrade = GradeAnswer['grade'];

/** An LMS connection (an LTI 1.3 registration), as the integrations service answers it. */
export type LtiPlatform = PlatformList['platforms'][number];
/** What a connection is saved with: its fields and whether it is disabled. */
export type LtiPlatformFields = ApiBody<'/api/admin/lti/platforms', 'post'>;

/** The tool's three URLs an LMS admin pastes into their LMS, for the site at `origin`. */
export function toolUrlsFor(origin: string) {
  return {
    loginUrl: `${origin}/api/lti/login`,
    launchUrl: `${origin}/api/lti/launch`,
    jwksUrl: `${origin}/api/lti/jwks`,
  };
}

const MAX_URL = 2048;

/** As the service checks a URL: given, at most 2048 characters, http(s). (It asks https but on a loopback address.) */
const urlField = (label: string) =>
  z
    .string()
    .trim()
    .min(1, adminT('lti.form.required', { label }))
    .max(MAX_URL, adminT('lti.form.tooLong', { label, max: MAX_URL }))
    .refine(
      (value) => {
        try {
          return /^https?:$/.test(new URL(value).protocol);
        } catch {
          return false;
        }
      },
      adminT('lti.form.notUrl', { label }),
    );

const textField = (label: string, max: number) =>
  z
    .string()
    .trim()
    .min(1, adminT('lti.form.required', { label }))
    .max(max, adminT('lti.form.tooLong', { label, max }));

/** The deployment IDs as typed: one per line or separated by commas, blanks and repeats left out. */
export const splitDeploymentIds = (text: string): string[] => [
  ...new Set(
    text
      .split(/[\n,]/)
      .map((id) => id.trim())
      .filter(Boolean),
  ),
];

/** The Add/Edit form, with the service's rules: every field required, the three URLs URLs. */
export const platformFormSchema = z.object({
  name: textField(adminT('lti.form.name'), 120),
  issuer: textField(adminT('lti.form.issuer'), 2048),
  clientId: textField(adminT('lti.form.clientId'), 255),
  deploymentIds: z
    .string()
    .refine((text) => splitDeploymentIds(text).length > 0, adminT('lti.form.deploymentIdsRequired'))
    .refine((text) => splitDeploymentIds(text).length <= 50, adminT('lti.form.deploymentIdsTooMany'))
    .refine(
      (text) => splitDeploymentIds(text).every((id) => id.length <= 255),
      adminT('lti.form.deploymentIdTooLong'),
    ),
  authUrl: urlField(adminT('lti.form.authUrl')),
  jwksUrl: urlField(adminT('lti.form.jwksUrl')),
  tokenUrl: urlField(adminT('lti.form.tokenUrl')),
});
export type PlatformFormInput = z.infer<typeof platformFormSchema>;

/** The form's values as the service takes them. */
export const platformBody = (values: PlatformFormInput, disabled: boolean): LtiPlatformFields => ({
  ...values,
  deploymentIds: splitDeploymentIds(values.deploymentIds),
  disabled,
});

const FIELD_NAMES = [
  'name',
  'issuer',
  'clientId',
  'deploymentIds',
  'authUrl',
  'jwksUrl',
  'tokenUrl',
  'disabled',
] as const satisfies readonly (keyof LtiPlatformFields)[];

/** A connection's fields, to save it again with one of them changed. */
export const fieldsOf = (platform: LtiPlatform): LtiPlatformFields =>
  Object.fromEntries(FIELD_NAMES.map((name) => [name, platform[name]])) as LtiPlatformFields;

const platformTags = (platforms: LtiPlatform[] = []) => [
  { type: 'LtiPlatform' as const, id: LIST },
  ...platforms.map((p) => ({ type: 'LtiPlatform' as const, id: p.id })),
];

export const ltiApi = api.injectEndpoints({
  endpoints: (build) => ({
    getLtiPlatforms: build.query<LtiPlatform[], void>({
      query: () => request('/api/admin/lti/platforms', 'get'),
      transformResponse: (body: PlatformList) => body.platforms,
      providesTags: (platforms) => platformTags(platforms),
    }),
    addLtiPlatform: build.mutation<LtiPlatform, LtiPlatformFields>({
      query: (body) => request('/api/admin/lti/platforms', 'post', { body }),
      transformResponse: (body: SavedPlatform) => body.platform,
      invalidatesTags: [{ type: 'LtiPlatform', id: LIST }],
    }),
    updateLtiPlatform: build.mutation<LtiPlatform, LtiPlatformFields & { id: string }>({
      query: ({ id, ...body }) => request('/api/admin/lti/platforms/{id}', 'put', { path: { id }, body }),
      transformResponse: (body: EditedPlatform) => body.platform,
      invalidatesTags: (_r, _e, { id }) => [{ type: 'LtiPlatform', id }],
    }),
    deleteLtiPlatform: build.mutation<void, string>({
      query: (id) => request('/api/admin/lti/platforms/{id}', 'delete', { path: { id } }),
      transformResponse: () => undefined,
      invalidatesTags: [{ type: 'LtiPlatform', id: LIST }],
    }),
    // A one-time link (an hour) for LTI Dynamic Registration; not kept in the cache.
    makeRegistrationLink: build.mutation<RegistrationLink, void>({
      query: () => request('/api/admin/lti/registration-links', 'post'),
    }),
    // 404: the result's student did not come from an LMS (the detail page then shows nothing of it).
    getLmsGrade: build.query<LmsGrade, string>({
      query: (resultId) => request('/api/admin/lti/grades/{resultId}', 'get', { path: { resultId } }),
      transformResponse: (body: GradeAnswer) => body.grade,
      providesTags: (_g, _e, resultId) => [{ type: 'LmsGrade', id: resultId }],
    }),
    sendLmsGradeAgain: build.mutation<LmsGrade, string>({
      query: (resultId) => request('/api/admin/lti/grades/{resultId}/send', 'post', { path: { resultId } }),
      transformResponse: (body: GradeQueued) => body.grade,
      invalidatesTags: (_g, _e, resultId) => [{ type: 'LmsGrade', id: resultId }],
    }),
  }),
});

export const {
  useGetLtiPlatformsQuery,
  useAddLtiPlatformMutation,
  useUpdateLtiPlatformMutation,
  useDeleteLtiPlatformMutation,
  useGetLmsGradeQuery,
  useMakeRegistrationLinkMutation,
  useSendLmsGradeAgainMutation,
} = ltiApi;
