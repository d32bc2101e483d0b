import { z } from 'zod';
import { api } from '../../../lib/api';
import { request } from '../../../lib/api-request';
import { wholeNumberField } from '../../../lib/forms';
import type { ApiAnswer, ApiBody } from '../../../lib/api-types';
import { adminT } from '../../../i18n/admin/admin-i18n';

/** `GET` and `PUT /api/admin/students/retention`: on or off, and after how many months of inactivity. */
export type RetentionSettings = ApiAnswer<'/api/admin/students/retention', 'get'>;
/** What a retention of N months would erase now: how many students, and the oldest last activity among them. */
export type RetentionDryRun = ApiAnswer<'/api/admin/students/retention/dry-run', 'get'>;
export type RetentionChange = ApiBody<'/api/admin/students/retention', 'put'>;

const MONTHS_MESSAGE = adminT('retention.monthsInvalid');
export const retentionSchema = z.object({
  months: wholeNumberField(1, 120, MONTHS_MESSAGE),
});
export type RetentionInput = z.infer<typeof retentionSchema>;

/**
 * Whether saving `months` (on) can erase someone who is not due now, so the dry run's count must be confirmed:
 * switching on, or fewer months while on (the service's rule; it refuses the save otherwise).
 */
export const needsConfirmation = (current: RetentionSettings, months: number) =>
  !current.enabled || months < current.months;

export const retentionApi = api.injectEndpoints({
  endpoints: (build) => ({
    getRetention: build.query<RetentionSettings, void>({
      query: () => request('/api/admin/students/retention', 'get'),
      providesTags: ['RetentionSettings'],
    }),
    // Always asked again: a count is only worth what it is now.
    retentionDryRun: build.query<RetentionDryRun, number>({
      query: (months) => request('/api/admin/students/retention/dry-run', 'get', { query: { months } }),
      keepUnusedDataFor: 0,
    }),
    saveRetention: build.mutation<RetentionSettings, RetentionChange>({
      query: (body) => request('/api/admin/students/retention', 'put', { body }),
      // Students may be erased from the next check on: the lists read them again.
      invalidatesTags: ['RetentionSettings', 'Student', 'Result', 'Dashboard'],
    }),
  }),
});

export const { useGetRetentionQuery, useLazyRetentionDryRunQuery, useSaveRetentionMutation } = retentionApi;
