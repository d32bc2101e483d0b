import {
  performanceLevelSchema,
  questionKindSchema,
  sectionFiguresSchema,
  shownPercentage,
  shownPercentageSchema,
  timelineEntrySchema,
} from '@readiness/contracts';
import { adminClaims } from '@readiness/kit/auth';
import { operationsFor, serviceApi } from '@readiness/kit/openapi';
import type { Response } from 'express';
import { z } from 'zod';
import { CSV_HEADER, csvResultLine } from '../../domain/csv';
import type { Results } from '../../domain/results';
import { DISTRIBUTION_BANDS, distributionBands } from '../../domain/result-views';
import { questionNumbers } from '../../domain/assessment';
import { analysisQuery, filterQuery, idParams, listQuery } from './schemas';
import { toResultDetail, toResultRow } from './views';

const TAG = 'Results';

const resultRow = z.object({
  _id: z.string(),
  studentId: z.string(),
  student: z.object({ name: z.string(), email: z.string() }),
  score: z.number().int(),
  totalPoints: z.number().int(),
  percentage: shownPercentageSchema,
  passed: z.boolean(),
  performanceLevel: performanceLevelSchema,
  assessmentCode: z.string(),
  completedAt: z.string(),
  attemptNumber: z.number().int(),
  canRetake: z.boolean(),
  version: z.number().int(),
});

const resultDetail = resultRow.extend({
  passingScore: z.number().int(),
  timeline: z
    .array(timelineEntrySchema)
    .describe('What happened during the attempt, oldest first: facts only, never part of the score'),
  timeSpent: z.number().int(),
  startedAt: z.string().nullable(),
  sections: z.array(
    sectionFiguresSchema.extend({ description: z.string(), performanceLevel: performanceLevelSchema }),
  ),
  answers: z.array(
    z.object({
      questionId: z.string(),
      number: z
        .number()
        .int()
        .nullable()
        .describe(
          "The question's number in its version (as the editor and the item analysis number it); null when the version is not known",
        ),
      paperPosition: z
        .number()
        .int()
        .nullable()
        .describe(
          "Where the question stood on the attempt's own paper, in the order shown; null when the attempt had no paper of its own (or was scored before it was kept)",
        ),
      question: z.string(),
      type: questionKindSchema,
      section: z.number().int(),
      answer: z.string(),
      answerText: z.string(),
      isCorrect: z.boolean(),
      skipped: z.boolean().describe('An optional question left unanswered: in neither score nor total'),
      points: z.number().int(),
      maxPoints: z.number().int(),
      file: z
        .object({ originalName: z.string(), size: z.number().int(), mimetype: z.string(), url: z.string() })
        .optional(),
    }),
  ),
  assessmentVersion: z
    .object({
      versionId: z.string(),
      version: z.number().int(),
      title: z.string(),
      passingScore: z.number().int(),
      sections: z.array(
        z.object({
          id: z.number().int(),
          title: z.string(),
          description: z.string(),
          questions: z.array(
            z.object({
              id: z.string(),
              number: z.number().int().describe("The question's number in the version"),
              type: questionKindSchema,
              question: z.string(),
              points: z.number().int(),
              required: z.boolean(),
              correctAnswer: z.string(),
              options: z.array(z.object({ id: z.string(), text: z.string() })),
            }),
          ),
        }),
      ),
    })
    .nullable(),
});

const message = z.object({ message: z.string() });

/**
 * Writes a chunk, waiting for the socket to drain when its buffer is full (a slow download paces the reads), or
 * for the connection to close (a download given up on ends the export).
 */
async function write(res: Response, chunk: string): Promise<void> {
  if (res.write(chunk)) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** The item analysis as the API answers it: every question and section of the version, with their figures. */
function analysisJson(found: Awaited<ReturnType<Results['analysis']>>) {
  const empty = Array.from({ length: DISTRIBUTION_BANDS }, () => 0);
  const counts = found.figures?.distribution ?? empty;
  const byQuestion = new Map(found.figures?.questions.map((q) => [q.questionId, q]));
  const bySection = new Map(found.figures?.sections.map((s) => [s.id, s]));
  const numbers = questionNumbers(found.version ?? { questions: [] });
  return {
    version: found.version?.version ?? null,
    versions: found.versions,
    attempts: found.figures?.attempts ?? 0,
    questions: (found.version?.questions ?? []).map((q) => {
      const f = byQuestion.get(q.id);
      const attempts = f?.attempts ?? 0;
      const correct = f?.correct ?? 0;
      return {
        id: q.id,
        number: numbers.get(q.id)!,
        question: q.question,
        type: q.type,
        section: q.section,
        attempts,
        correct,
        skipped: f?.skipped ?? 0,
        facility: attempts > 0 ? Math.round((correct / attempts) * 1000) / 1000 : 0,
      };
    }),
    sections: (found.version?.sections ?? []).map((s) => ({
      id: s.id,
      title: s.title,
      meanPercentage: bySection.get(s.id)?.meanPercentage ?? 0,
    })),
    distribution: distributionBands(counts),
  };
}

const operation = operationsFor<Results>();

/**
 * The results service's API, each operation declared once: its description, access, schemas and handler. The
 * OpenAPI document and the routes both come from these declarations; the runtime's admin guard checks every
 * /api/admin call before them.
 */
export const resultsApi = serviceApi<Results>({
  service: 'results',
  tags: [{ name: TAG, description: 'Scored results, the dashboard figures, exports and item analysis' }],
  operations: {
    'GET /api/admin/dashboard': operation({
      summary: 'The dashboard figures and the five most recent results',
      tags: [TAG],
      admin: true,
      responses: {
        200: {
          description: 'Figures over all students and results',
          body: z.object({
            stats: z.object({
              totalStudents: z.number().int(),
              completedAssessments: z.number().int(),
              passedAssessments: z.number().int(),
              pendingInvites: z.number().int(),
              passRate: z.number().int(),
              inProgress: z.number().int(),
            }),
            recentResults: z.array(
              z.object({
                _id: z.string(),
                student: z.object({ name: z.string(), email: z.string() }),
                percentage: shownPercentageSchema,
                passed: z.boolean(),
                completedAt: z.string(),
              }),
            ),
          }),
        },
        401: 'Not signed in',
      },
      async handle(_input, results) {
        const { stats, recentResults } = await results.dashboard();
        return {
          stats,
          recentResults: recentResults.map((r) => ({
            _id: r.id,
            student: r.student,
            percentage: shownPercentage(r.score, r.totalPoints),
            passed: r.passed,
            completedAt: r.completedAt.toISOString(),
          })),
        };
      },
    }),
    'GET /api/admin/results': operation({
      summary: 'Results: search (name or e-mail), status, sort, page and page size; stats over all results',
      tags: [TAG],
      admin: true,
      query: listQuery,
      responses: {
        200: {
          description: 'One page',
          body: z.object({
            results: z.array(resultRow),
            pagination: z.object({
              currentPage: z.number().int(),
              totalPages: z.number().int(),
              totalResults: z.number().int(),
              hasNext: z.boolean(),
              hasPrev: z.boolean(),
            }),
            stats: z.object({
              totalResults: z.number().int(),
              passed: z.number().int(),
              failed: z.number().int(),
              averagePercentage: z.number().int(),
              passRate: z.number().int(),
            }),
          }),
        },
        400: 'A query parameter is not valid',
        401: 'Not signed in',
      },
      async handle({ query }, results) {
        const { page, limit, ...filter } = query;
        const found = await results.list(filter, { page, limit });
        const totalPages = Math.max(1, Math.ceil(found.total / limit));
        return {
          results: found.results.map(toResultRow),
          pagination: {
            currentPage: page,
            totalPages,
            totalResults: found.total,
            hasNext: page < totalPages,
            hasPrev: page > 1,
          },
          stats: found.stats,
        };
      },
    }),
    'GET /api/admin/results/export.csv': operation({
      summary:
        'The filtered results as CSV (streamed; cells that a spreadsheet would run as formulas are escaped)',
      tags: [TAG],
      admin: true,
      query: filterQuery,
      responses: {
        200: { description: 'text/csv attachment' },
        400: 'A query parameter is not valid',
        401: 'Not signed in',
      },
      async handle({ query, res }, results) {
        const day = new Date().toISOString().slice(0, 10);
        res.setHeader('Content-Type', 'text/csv; charset=utf-8');
        res.setHeader('Content-Disposition', `attachment; filename="results-${day}.csv"`);
        res.setHeader('X-Content-Type-Options', 'nosniff');
        // A byte-order mark, so spreadsheet programs read the names as UTF-8.
        await write(res, `\uFEFF${CSV_HEADER}`);
        let rows = 0;
        for await (const batch of results.exportBatches(query)) {
          if (res.destroyed) return;
          await write(res, batch.map(csvResultLine).join(''));
          rows += batch.length;
        }
        // In the audit log once the whole file was written.
        await results.exported({
          actorId: adminClaims(res).sub,
          search: query.search,
          status: query.status,
          rows,
        });
        res.end();
      },
    }),
    'GET /api/admin/results/analysis': operation({
      summary:
        'Item analysis of the active version or ?version=N: facility per question, section means, spread',
      tags: [TAG],
      admin: true,
      query: analysisQuery,
      responses: {
        200: {
          description: 'The figures over every result of the version',
          body: z.object({
            version: z.number().int().nullable(),
            versions: z.array(z.number().int()),
            attempts: z.number().int(),
            questions: z.array(
              z.object({
                id: z.string(),
                number: z.number().int().describe("The question's number in the version, from 1"),
                question: z.string(),
                type: questionKindSchema,
                section: z.number().int(),
                attempts: z.number().int().describe('Results where the question counted'),
                correct: z.number().int(),
                skipped: z.number().int().describe('Results where it was optional and left unanswered'),
                facility: z.number(),
              }),
            ),
            sections: z.array(
              z.object({
                id: z.number().int(),
                title: z.string(),
                meanPercentage: z.number().int(),
              }),
            ),
            distribution: z.array(
              z.object({ from: z.number().int(), to: z.number().int(), count: z.number().int() }),
            ),
          }),
        },
        400: 'A query parameter is not valid',
        401: 'Not signed in',
        404: 'Assessment version not found',
      },
      async handle({ query }, results) {
        return analysisJson(await results.analysis(query.version));
      },
    }),
    'GET /api/admin/results/{id}': operation({
      summary: 'One result with per-section and per-question figures and the version the student took',
      tags: [TAG],
      admin: true,
      params: idParams,
      responses: {
        200: { description: 'The result', body: z.object({ result: resultDetail }) },
        401: 'Not signed in',
        404: 'Result not found',
      },
      async handle({ params }, results) {
        const { result, version } = await results.detail(params.id);
        return { result: toResultDetail(result, version) };
      },
    }),
    'DELETE /api/admin/results/{id}': operation({
      summary: 'Delete a result (results.result.deleted.v1: copies and the certificate go too)',
      tags: [TAG],
      admin: true,
      params: idParams,
      responses: {
        200: { description: 'Deleted', body: message },
        401: 'Not signed in',
        404: 'Result not found',
      },
      async handle({ params, res }, results) {
        await results.remove(params.id, adminClaims(res).sub);
        return { message: 'Assessment result deleted successfully' };
      },
    }),
    'POST /api/admin/results/{id}/resend-certificate': operation({
      summary: "Mail a passed result's certificate again (results.certificate.resend-requested.v1)",
      tags: [TAG],
      admin: true,
      params: idParams,
      responses: {
        200: { description: 'Requested', body: message },
        401: 'Not signed in',
        404: 'Result not found',
        409: 'Only a passed result has a certificate to resend',
      },
      async handle({ params, res }, results) {
        await results.resendCertificate(params.id, adminClaims(res).sub);
        return { message: 'Certificate resent successfully' };
      },
    }),
  },
});
