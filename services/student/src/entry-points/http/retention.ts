import { superAdminId } from '@readiness/kit/auth';
import { z } from 'zod';
import { RETENTION_MONTHS } from '../../domain/retention/rules';
import type { RetentionSettings } from '../../domain/retention/settings';
import { jsonBody } from './json-body';
import { TAGS, operation } from './operation';
import { whole } from './students/student-fields';

/** Every data retention operation: tagged Data retention, for super admins only (403 for other administrators). */
const SUPER_ADMINS = { tags: [TAGS.retention.name], admin: true };
const REFUSED = { 403: 'Not a super admin' } as const;

const monthsField = whole('Months', RETENTION_MONTHS.min, RETENTION_MONTHS.max).describe(
  'Students whose last activity is older than this many months are erased',
);

const retentionOut = z.object({
  enabled: z.boolean().describe('Off by default: nobody is erased'),
  months: z.number().int(),
  updatedAt: z.string().nullable().describe('When a super admin saved it; null: never (off)'),
  updatedBy: z.string().nullable().describe("The super admin's id"),
});

const retentionBody = jsonBody({
  enabled: z.boolean({ error: 'enabled must be true or false' }),
  months: monthsField,
  expectedCount: whole('expectedCount', 0, 10_000_000)
    .optional()
    .describe(
      'The dry run’s count the super admin confirmed: required to switch retention on or to shorten the months',
    ),
});

const dryRunOut = z.object({
  months: z.number().int(),
  cutoff: z.string().describe('Students last active before this moment would be erased'),
  count: z.number().int().describe('How many students would be erased now'),
  oldestActivityAt: z.string().nullable().describe('The oldest last activity among them; null: nobody'),
});

const toRetentionJson = (s: RetentionSettings) => ({
  enabled: s.enabled,
  months: s.months,
  updatedAt: s.updatedAt?.toISOString() ?? null,
  updatedBy: s.updatedBy,
});

/**
 * The data retention setting (under /api/admin/students/retention): off by default; when on, the retention job erases
 * students whose last activity is older than N months, as an administrator's Delete would. A dry run first; switching
 * it on or shortening N carries the count the super admin saw.
 */
export const adminRetention = {
  'GET /api/admin/students/retention': operation({
    summary:
      'The data retention setting: on or off, and after how many months of inactivity students are erased',
    ...SUPER_ADMINS,
    responses: { 200: { description: 'The setting', body: retentionOut }, ...REFUSED },
    async handle({ res }, { students }) {
      superAdminId(res);
      return toRetentionJson(await students.retentionSettings());
    },
  }),
  'GET /api/admin/students/retention/dry-run': operation({
    summary:
      'How many students a retention of N months would erase now, and the oldest last activity among them',
    ...SUPER_ADMINS,
    query: z.object({ months: monthsField }),
    responses: {
      200: { description: 'The dry run; nothing is erased', body: dryRunOut },
      400: 'Months out of range',
      ...REFUSED,
    },
    async handle({ query, res }, { students }) {
      superAdminId(res);
      const run = await students.retentionDryRun(query.months);
      return {
        months: run.months,
        cutoff: run.cutoff.toISOString(),
        count: run.count,
        oldestActivityAt: run.oldestActivityAt?.toISOString() ?? null,
      };
    },
  }),
  'PUT /api/admin/students/retention': operation({
    summary:
      'Set data retention (audited); switching it on or shortening the months needs the dry run’s count (expectedCount)',
    ...SUPER_ADMINS,
    body: retentionBody,
    responses: {
      200: { description: 'The setting, in force from the job’s next pass', body: retentionOut },
      400: 'A value is out of range, or expectedCount is missing where it is needed',
      ...REFUSED,
      409: 'More students are due now than expectedCount: run the dry run again',
    },
    async handle({ body, res }, { students }) {
      const actorId = superAdminId(res);
      return toRetentionJson(await students.updateRetentionSettings(body, actorId));
    },
  }),
};
