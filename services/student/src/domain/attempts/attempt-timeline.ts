import { badRequest } from '@readiness/kit/errors';
import type { TimelineFact } from '@readiness/contracts';
import type { AttemptRecord, FinalisedBy } from '../../data-access/attempt-records';
import { recordActivity, type ReportedFact, type TimelineRow } from '../../data-access/timeline-repository';
import { tokenHash } from '../tokens';
import { openAttempt, type AttemptsContext } from './context';

/** A fact as the student's page reports it (`POST /api/student/{token}/activity`), its time on the server's clock. */
export type PageFact =
  | { kind: 'section_reached'; at: string; sectionId: number }
  | { kind: 'page_hidden' | 'offline'; at: string; seconds: number }
  | { kind: 'pasted'; at: string; questionId: string; chars: number };

const reported = (f: PageFact): ReportedFact => {
  const at = new Date(f.at);
  switch (f.kind) {
    case 'section_reached':
      return { at, kind: f.kind, detail: { sectionId: f.sectionId } };
    case 'pasted':
      return { at, kind: f.kind, detail: { questionId: f.questionId, chars: f.chars } };
    default:
      return { at, kind: f.kind, detail: { seconds: f.seconds } };
  }
};

/**
 * Keeps what the student's page saw of its open attempt and which device it runs on (a device the attempt has not
 * seen before, after the first, is a second device). A section or question the attempt's version does not have
 * is a 400, as an autosave's is; a closed attempt a 409, a link that is not the attempt's a 404.
 */
export async function recordPageActivity(
  ctx: AttemptsContext,
  token: string,
  input: { attemptId: string; deviceId: string; entries: PageFact[] },
): Promise<void> {
  const known = ctx.attemptVersions.get(input.attemptId);
  if (known && fits(await ctx.versions.version(known), input.entries)) {
    const written = await record(ctx, token, input);
    if (written) return;
  }
  // The checks one by one, so every refusal says why: the link, the attempt, then the facts.
  const { attempt } = await openAttempt(ctx, token, input.attemptId);
  const version = await ctx.versions.version(attempt.versionId);
  if (!fits(version, input.entries)) throw invalidFact();
  if (!(await record(ctx, token, input))) await openAttempt(ctx, token, input.attemptId);
}

const record = (ctx: AttemptsContext, token: string, input: Parameters<typeof recordPageActivity>[2]) =>
  ctx.database.transaction((tx) =>
    recordActivity(tx, {
      attemptId: input.attemptId,
      owner: tokenHash(token),
      deviceId: input.deviceId,
      facts: input.entries.map(reported),
      graceSeconds: ctx.graceSeconds,
    }),
  );

type Version = Awaited<ReturnType<AttemptsContext['versions']['version']>>;

function fits(v: Version, entries: PageFact[]): boolean {
  const sections = new Set(v.sections.map((s) => s.id));
  const questions = new Set(v.questions.map((q) => q.id));
  return entries.every(
    (e) =>
      (e.kind !== 'section_reached' || sections.has(e.sectionId)) &&
      (e.kind !== 'pasted' || questions.has(e.questionId)),
  );
}

export const invalidFact = () =>
  badRequest('An entry names a section or question this assessment does not have', 'validation_error');

const ENDINGS: Record<FinalisedBy, TimelineFact['kind']> = {
  student: 'submitted',
  admin: 'ended',
  deadline: 'timed_out',
};

/**
 * The attempt's timeline as its submitted event carries it: the start, what was recorded while it ran in the order
 * it was recorded (saves with nothing else between them merged into one entry with their count), and the end.
 */
export function attemptTimeline(
  a: Pick<AttemptRecord, 'startedAt'>,
  recorded: TimelineRow[],
  end: { at: Date; by: FinalisedBy; actorId?: string },
): TimelineFact[] {
  const facts: TimelineFact[] = [{ at: a.startedAt.toISOString(), kind: 'started' }];
  for (const row of recorded) {
    const at = row.at.toISOString();
    const last = facts[facts.length - 1]!;
    if (row.kind === 'saved') {
      if (last.kind === 'saved') {
        last.count = (last.count ?? 1) + 1;
        last.until = at;
      } else facts.push({ at, kind: 'saved', count: 1, until: at });
      continue;
    }
    const d = row.detail;
    facts.push({
      at,
      kind: row.kind,
      ...(d.sectionId !== undefined ? { sectionId: d.sectionId } : {}),
      ...(d.seconds !== undefined ? { seconds: d.seconds } : {}),
      ...(d.questionId !== undefined ? { questionId: d.questionId } : {}),
      ...(d.chars !== undefined ? { count: d.chars } : {}),
      ...(d.minutes !== undefined ? { minutes: d.minutes } : {}),
      ...(d.actorId !== undefined ? { actorId: d.actorId } : {}),
    });
  }
  facts.push({
    at: end.at.toISOString(),
    kind: ENDINGS[end.by],
    ...(end.actorId ? { actorId: end.actorId } : {}),
  });
  return facts;
}
