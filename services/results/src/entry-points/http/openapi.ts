import { describeService } from '@readiness/kit/openapi';
import { z } from 'zod';
import { analysisQuery, filterQuery, idParams, listQuery } from './schemas';

const TAG = 'Results';

const LEVELS = ['Excellent', 'Good', 'Satisfactory', 'Needs Improvement'] as const;

const resultRow = z.object({
  _id: z.string(),
  studentId: z.string(),
  student: z.object({ name: z.string(), email: z.string() }),
  score: z.number().int(),
  totalPoints: z.number().int(),
  percentage: z.number().int(),
  passed: z.boolean(),
  performanceLevel: z.enum(LEVELS),
  assessmentCode: z.string(),
  completedAt: z.string(),
  attemptNumber: z.number().int(),
  canRetake: z.boolean(),
  version: z.number().int(),
});

const questionType = z.enum(['yes_no', 'multiple_choice', 'file_upload']);

const resultDetail = resultRow.extend({
  passingScore: z.number().int(),
  timeSpent: z.number().int(),
  startedAt: z.string().nullable(),
  sections: z.array(
    z.object({
      id: z.number().int(),
      title: z.string(),
      description: z.string(),
      score: z.number().int(),
      totalPoints: z.number().int(),
      correct: z.number().int(),
      questions: z.number().int(),
      percentage: z.number().int(),
      performanceLevel: z.enum(LEVELS),
    }),
  ),
  answers: z.array(
    z.object({
      questionId: z.string(),
      question: z.string(),
      type: questionType,
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
              type: questionType,
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

/** The results service's API, from the schemas its routes validate with. */
export const openApi = describeService({
  service: 'results',
  tags: [{ name: TAG, description: 'Scored results, the dashboard figures, exports and item analysis' }],
  operations: {
    'GET /api/admin/dashboard': {
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
                percentage: z.number().int(),
                passed: z.boolean(),
                completedAt: z.string(),
              }),
            ),
          }),
        },
        401: 'Not signed in',
      },
    },
    'GET /api/admin/results': {
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
    },
    'GET /api/admin/results/export.csv': {
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
    },
    'GET /api/admin/results/analysis': {
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
                question: z.string(),
                type: questionType,
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
    },
    'GET /api/admin/results/{id}': {
      summary: 'One result with per-section and per-question figures and the version the student took',
      tags: [TAG],
      admin: true,
      params: idParams,
      responses: {
        200: { description: 'The result', body: z.object({ result: resultDetail }) },
        401: 'Not signed in',
        404: 'Result not found',
      },
    },
    'DELETE /api/admin/results/{id}': {
      summary: 'Delete a result (results.result.deleted.v1: copies and the certificate go too)',
      tags: [TAG],
      admin: true,
      params: idParams,
      responses: {
        200: { description: 'Deleted', body: message },
        401: 'Not signed in',
        404: 'Result not found',
      },
    },
    'POST /api/admin/results/{id}/resend-certificate': {
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
    },
  },
});
