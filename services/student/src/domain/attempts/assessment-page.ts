import type { Language } from '@readiness/contracts';
import { notFound } from '@readiness/kit/errors';
import { assessmentPage } from '../../data-access/assessment-page-repository';
import { tokenHash } from '../tokens';
import { pageView, studentView } from '../versions';
import type { AttemptsContext } from './context';
import { pageLanguage } from './language';
import { givenIds } from './paper';
import { NO_ASSESSMENT_MESSAGE } from './messages';
import { attemptJson } from './attempt-json';
import { attemptSeconds } from './attempt-time';
import { usable } from './invitation-link';

/**
 * The welcome page and the test: one database round trip, the version's student view from memory, and the language
 * to show them in (`browser`: what Accept-Language asks for, among the languages). The view carries no scored
 * question until the student starts, then only the questions of their own paper (`pageView`); the language asked
 * for changes none of it.
 */
export async function studentAssessment(
  ctx: AttemptsContext,
  token: string,
  browser: Language | null = null,
) {
  const page = await assessmentPage(ctx.database.db, tokenHash(token), ctx.versions.viewIds());
  const student = usable(page?.student);
  if (!page!.versionId) throw notFound(NO_ASSESSMENT_MESSAGE, 'no_assessment');
  const view = page!.content ? ctx.versions.remember(page!.content) : ctx.versions.view(page!.versionId);
  const latest = page!.latest;
  const whole = view ?? studentView(await ctx.versions.version(page!.versionId));
  const assessment = pageView(whole, page!.attempt ? givenIds(page!.attempt.paper) : []);
  return {
    student: {
      name: student.name,
      email: student.email,
      extraTimePercent: student.extraTimePercent,
      // The student's own limit, as Start will set it: the page states it and computes nothing.
      timeLimitSeconds: attemptSeconds(assessment.timeLimit, student.extraTimePercent),
    },
    alreadyCompleted: Boolean(page!.passed),
    result: page!.passed,
    previousAttempt: latest
      ? { percentage: latest.percentage, passed: latest.passed, completedAt: latest.completedAt }
      : null,
    assessment,
    attempt: page!.attempt ? attemptJson(page!.attempt, page!.attempt.files) : null,
    awaitingResult: page!.awaitingResult,
    language: pageLanguage(page!.attempt, student, browser),
    serverNow: page!.serverNow,
  };
}
