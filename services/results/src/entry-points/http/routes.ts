import { adminClaims } from '@readiness/kit/auth';
import { parse } from '@readiness/kit/http';
import type { Express, Response } from 'express';
import { CSV_HEADER, csvResultLine } from '../../domain/csv';
import type { Results } from '../../domain/results';
import { analysisQuery, filterQuery, idParams, listQuery } from './schemas';
import { toResultDetail, toResultRow } from './views';

export const RESULTS_PREFIX = '/api/admin/results';

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

/** The admin routes; the runtime's admin guard checks every /api/admin call before them. */
export function resultsRoutes(results: Results): (app: Express) => void {
  const actorId = (res: Response) => adminClaims(res).sub;
  return (app) => {
    app.get('/api/admin/dashboard', async (_req, res) => {
      const { stats, recentResults } = await results.dashboard();
      res.json({
        stats,
        recentResults: recentResults.map((r) => ({
          _id: r.id,
          student: r.student,
          percentage: r.percentage,
          passed: r.passed,
          completedAt: r.completedAt.toISOString(),
        })),
      });
    });
    app.get(RESULTS_PREFIX, async (req, res) => {
      const { page, limit, ...filter } = parse(listQuery, req.query);
      const found = await results.list(filter, { page, limit });
      const totalPages = Math.max(1, Math.ceil(found.total / limit));
      res.json({
        results: found.results.map(toResultRow),
        pagination: {
          currentPage: page,
          totalPages,
          totalResults: found.total,
          hasNext: page < totalPages,
          hasPrev: page > 1,
        },
        stats: found.stats,
      });
    });
    app.get(`${RESULTS_PREFIX}/export.csv`, async (req, res) => {
      const filter = parse(filterQuery, req.query);
      const day = new Date().toISOString().slice(0, 10);
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      res.setHeader('Content-Disposition', `attachment; filename="results-${day}.csv"`);
      res.setHeader('X-Content-Type-Options', 'nosniff');
      // A byte-order mark, so spreadsheet programs read the names as UTF-8.
      await write(res, `\uFEFF${CSV_HEADER}`);
      for await (const batch of results.exportBatches(filter)) {
        if (res.destroyed) return;
        await write(res, batch.map(csvResultLine).join(''));
      }
      res.end();
    });
    app.get(`${RESULTS_PREFIX}/analysis`, async (req, res) => {
      const { version } = parse(analysisQuery, req.query);
      const found = await results.analysis(version);
      const empty = Array.from({ length: 10 }, () => 0);
      const counts = found.figures?.distribution ?? empty;
      const byQuestion = new Map(found.figures?.questions.map((q) => [q.questionId, q]));
      const bySection = new Map(found.figures?.sections.map((s) => [s.id, s]));
      res.json({
        version: found.version?.version ?? null,
        versions: found.versions,
        attempts: found.figures?.attempts ?? 0,
        questions: (found.version?.questions ?? []).map((q) => {
          const f = byQuestion.get(q.id);
          const attempts = f?.attempts ?? 0;
          const correct = f?.correct ?? 0;
          return {
            id: q.id,
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
        distribution: counts.map((count, i) => ({ from: i * 10, to: i === 9 ? 100 : i * 10 + 9, count })),
      });
    });
    app.get(`${RESULTS_PREFIX}/:id`, async (req, res) => {
      const { id } = parse(idParams, req.params);
      const { result, version } = await results.detail(id);
      res.json({ result: toResultDetail(result, version) });
    });
    app.delete(`${RESULTS_PREFIX}/:id`, async (req, res) => {
      const { id } = parse(idParams, req.params);
      await results.remove(id, actorId(res));
      res.json({ message: 'Assessment result deleted successfully' });
    });
    app.post(`${RESULTS_PREFIX}/:id/resend-certificate`, async (req, res) => {
      const { id } = parse(idParams, req.params);
      await results.resendCertificate(id, actorId(res));
      res.json({ message: 'Certificate resent successfully' });
    });
  };
}
