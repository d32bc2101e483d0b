import { api, field, LIST } from '../../../lib/api';
import type { SavePayload } from './assessment-schema';
import type { Assessment, AssessmentVersionSummary } from './types';

/** The answer's `key` field when the server wraps it, else the body itself. */
const unwrap =
  <T>(key: string) =>
  (body: unknown): T =>
    (typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (field<T>(key)(body) ?? body)
      : body) as T;

const CURRENT = 'CURRENT' as const;

export const assessmentsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAssessment: build.query<Assessment, void>({
      query: () => 'assessment',
      transformResponse: unwrap<Assessment>('assessment'),
      providesTags: [{ type: 'Assessment', id: CURRENT }],
    }),
    getAssessmentVersions: build.query<AssessmentVersionSummary[], void>({
      query: () => 'assessment/versions',
      transformResponse: unwrap<AssessmentVersionSummary[]>('versions'),
      providesTags: (versions = []) => [
        { type: 'AssessmentVersion', id: LIST },
        ...versions.map((v) => ({ type: 'AssessmentVersion' as const, id: v.version })),
      ],
    }),
    getAssessmentVersion: build.query<Assessment, number>({
      query: (version) => `assessment/versions/${version}`,
      transformResponse: unwrap<Assessment>('assessment'),
      providesTags: (_r, _e, version) => [{ type: 'AssessmentVersion', id: version }],
    }),
    saveAssessment: build.mutation<Assessment, SavePayload>({
      query: (body) => ({ url: 'assessment', method: 'PUT', body }),
      transformResponse: unwrap<Assessment>('assessment'),
      invalidatesTags: [
        { type: 'Assessment', id: CURRENT },
        { type: 'AssessmentVersion', id: LIST },
      ],
    }),
    activateAssessmentVersion: build.mutation<unknown, number>({
      query: (version) => ({ url: `assessment/versions/${version}/activate`, method: 'POST' }),
      invalidatesTags: (_r, _e, version) => [
        { type: 'Assessment', id: CURRENT },
        { type: 'AssessmentVersion', id: LIST },
        { type: 'AssessmentVersion', id: version },
      ],
    }),
    deleteAssessmentFile: build.mutation<void, string>({
      query: (filename) => ({ url: `assessment/file/${encodeURIComponent(filename)}`, method: 'DELETE' }),
      transformResponse: () => undefined,
    }),
  }),
});

export const {
  useGetAssessmentQuery,
  useGetAssessmentVersionsQuery,
  useGetAssessmentVersionQuery,
  useSaveAssessmentMutation,
  useActivateAssessmentVersionMutation,
  useDeleteAssessmentFileMutation,
} = assessmentsApi;
