import { api, LIST } from '../../../lib/api';
import { request } from '../../../lib/api-request';
import type {
  Assessment,
  AssessmentAnswer,
  AssessmentVersionSummary,
  ExportFormat,
  ImportPreview,
  SaveAnswer,
  SaveBody,
  VersionAnswer,
  VersionList,
} from './types';

const CURRENT = 'CURRENT' as const;

export const assessmentsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAssessment: build.query<Assessment, void>({
      query: () => request('/api/assessment', 'get'),
      transformResponse: (body: AssessmentAnswer) => body.assessment,
      providesTags: [{ type: 'Assessment', id: CURRENT }],
    }),
    getAssessmentVersions: build.query<AssessmentVersionSummary[], void>({
      query: () => request('/api/assessment/versions', 'get'),
      transformResponse: (body: VersionList) => body.versions,
      providesTags: (versions = []) => [
        { type: 'AssessmentVersion', id: LIST },
        ...versions.map((v) => ({ type: 'AssessmentVersion' as const, id: v.version })),
      ],
    }),
    getAssessmentVersion: build.query<Assessment, number>({
      query: (version) => request('/api/assessment/versions/{version}', 'get', { path: { version } }),
      transformResponse: (body: VersionAnswer) => body.assessment,
      providesTags: (_r, _e, version) => [{ type: 'AssessmentVersion', id: version }],
    }),
    saveAssessment: build.mutation<Assessment, SaveBody>({
      query: (body) => request('/api/assessment', 'put', { body }),
      transformResponse: (body: SaveAnswer) => body.assessment,
      invalidatesTags: [
        { type: 'Assessment', id: CURRENT },
        { type: 'AssessmentVersion', id: LIST },
      ],
    }),
    activateAssessmentVersion: build.mutation<unknown, number>({
      query: (version) =>
        request('/api/assessment/versions/{version}/activate', 'post', { path: { version } }),
      invalidatesTags: (_r, _e, version) => [
        { type: 'Assessment', id: CURRENT },
        { type: 'AssessmentVersion', id: LIST },
        { type: 'AssessmentVersion', id: version },
      ],
    }),
    /** Reads a Moodle XML file or QTI package into content for the editor: nothing is saved. */
    importAssessmentContent: build.mutation<ImportPreview, File>({
      query: (file) => {
        const form = new FormData();
        form.append('file', file);
        return request('/api/assessment/import', 'post', { form });
      },
    }),
    deleteAssessmentFile: build.mutation<void, string>({
      query: (filename) => request('/api/assessment/file/{filename}', 'delete', { path: { filename } }),
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
  useImportAssessmentContentMutation,
} = assessmentsApi;

/** A version as Moodle XML or a QTI 3.0 package, for `useFileDownload`. */
export const exportRequest = (version: number, format: ExportFormat) =>
  request('/api/assessment/versions/{version}/export', 'get', { path: { version }, query: { format } });

/** The exported file's name: the version and the format. */
export const exportFileName = (version: number, format: ExportFormat) =>
  format === 'qti3' ? `assessment-v${version}-qti3.zip` : `assessment-v${version}-moodle.xml`;
