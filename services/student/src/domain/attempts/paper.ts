import { randomInt } from 'node:crypto';
import type { Paper } from '../../data-access/attempt-records';
import type { AssessmentVersion } from '../versions';

export type { Paper };

/** A small, well-mixed generator (mulberry32): the same seed gives the same paper, wherever it is drawn again. */
function generator(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function shuffled<T>(items: readonly T[], next: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Whether the version gives each attempt its own paper. */
export const drawsPapers = (v: AssessmentVersion) =>
  Boolean(v.shuffleQuestions || v.shuffleOptions || v.sections.some((s) => s.draw));

/** The paper a seed draws from a version (null when the version draws and shuffles nothing). */
export function drawPaper(v: AssessmentVersion, seed: number = randomInt(2 ** 31)): Paper | null {
  if (!drawsPapers(v)) return null;
  const next = generator(seed);
  const order = new Map(v.questions.map((q, i) => [q.id, i]));
  const questionIds: string[] = [];
  for (const s of v.sections) {
    const own = v.questions.filter((q) => q.section === s.id).map((q) => q.id);
    const drawn = s.draw && s.draw < own.length ? shuffled(own, next).slice(0, s.draw) : own;
    const shown = v.shuffleQuestions
      ? shuffled(drawn, next)
      : drawn.sort((a, b) => order.get(a)! - order.get(b)!);
    questionIds.push(...shown);
  }
  const options: Record<string, string[]> = {};
  if (v.shuffleOptions) {
    for (const q of v.questions) {
      if (q.type === 'multiple_choice' && questionIds.includes(q.id)) {
        options[q.id] = shuffled(
          q.options.map((o) => o.id),
          next,
        );
      }
    }
  }
  return { seed, questionIds, options };
}

/** The questions of the version the attempt was given, in the version's order (every one without a paper). */
export function givenQuestions<Q extends { id: string }>(questions: readonly Q[], paper: Paper | null): Q[] {
  if (!paper) return [...questions];
  const given = new Set(paper.questionIds);
  return questions.filter((q) => given.has(q.id));
}

/** The ids of the questions an attempt was given (`null`: every question of its version, it has no paper). */
export const givenIds = (paper: Paper | null): string[] | null => (paper ? paper.questionIds : null);
