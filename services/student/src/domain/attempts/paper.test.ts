import type { AssessmentVersion, VersionQuestion } from '../versions';
import { drawPaper, drawsPapers, givenQuestions } from './paper';

const question = (id: string, section: number, options: string[] = []): VersionQuestion => ({
  id,
  type: options.length > 0 ? 'multiple_choice' : 'yes_no',
  question: id,
  section,
  points: 1,
  required: true,
  correctAnswer: options[0] ?? 'yes',
  options: options.map((o) => ({ id: o, text: o })),
  fileInstructions: '',
});

/** Section 1: eight yes/no questions (a bank); section 2: two multiple-choice questions of five options. */
const BANK = Array.from({ length: 8 }, (_, i) => question(`bank-${i + 1}`, 1));
const CHOICES = ['c1', 'c2'].map((id) =>
  question(
    id,
    2,
    ['a', 'b', 'c', 'd', 'e'].map((o) => `${id}-${o}`),
  ),
);
const IN_ORDER = [...BANK, ...CHOICES].map((q) => q.id);

const version = (
  rest: Pick<AssessmentVersion, 'shuffleQuestions' | 'shuffleOptions'> & {
    draw?: number;
    choicesDraw?: number;
  },
): AssessmentVersion => ({
  versionId: 'v',
  version: 1,
  title: 'Readiness check',
  description: '',
  timeLimit: 30,
  passingScore: 70,
  sections: [
    { id: 1, title: 'Bank', description: '', ...(rest.draw !== undefined ? { draw: rest.draw } : {}) },
    { id: 2, title: 'Choices', description: '', ...(rest.choicesDraw ? { draw: rest.choicesDraw } : {}) },
  ],
  // Stored out of order on purpose: a paper lists each section's questions in the version's order of sections.
  questions: [...CHOICES, ...BANK],
  shuffleQuestions: rest.shuffleQuestions,
  shuffleOptions: rest.shuffleOptions,
});

const SEEDS = Array.from({ length: 50 }, (_, i) => i * 7919 + 1);
const sorted = (ids: readonly string[]) => [...ids].sort();

describe('the paper draw and shuffling (question banks)', () => {
  it.each<[string, boolean, Parameters<typeof version>[0]]>([
    ['nothing is drawn or shuffled', false, {}],
    ["a section's draw is 0 (none)", false, { draw: 0 }],
    ['a section draws some of its questions', true, { draw: 4 }],
    ['the questions are shuffled', true, { shuffleQuestions: true }],
    ['the options are shuffled', true, { shuffleOptions: true }],
  ])('when %s, then each attempt gets a paper of its own: %s', (_what, draws, rest) => {
    expect(drawsPapers(version(rest))).toBe(draws);
    expect(drawPaper(version(rest), 1) === null).toBe(!draws);
  });

  it.each<[string, Parameters<typeof version>[0], (ids: string[]) => void]>([
    [
      'a section draws 4 of its 8 questions, then it gives 4 distinct ones of that section, in the version order, and the other section whole',
      { draw: 4 },
      (ids) => {
        expect(ids).toHaveLength(6);
        expect(new Set(ids).size).toBe(6);
        expect(ids.slice(0, 4).every((id) => id.startsWith('bank-'))).toBe(true);
        expect(ids.slice(0, 4)).toEqual(IN_ORDER.filter((id) => ids.slice(0, 4).includes(id)));
        expect(ids.slice(4)).toEqual(['c1', 'c2']);
      },
    ],
    [
      'a section draws more questions than it has, then it gives them all',
      { draw: 20, shuffleOptions: true },
      (ids) => expect(ids).toEqual(IN_ORDER),
    ],
    [
      'the questions are shuffled without a draw, then every question is given, each section kept together',
      { shuffleQuestions: true },
      (ids) => {
        expect(sorted(ids.slice(0, 8))).toEqual(sorted(BANK.map((q) => q.id)));
        expect(sorted(ids.slice(8))).toEqual(['c1', 'c2']);
      },
    ],
    [
      'two sections draw and shuffle, then each gives its own number, section by section',
      { draw: 3, choicesDraw: 1, shuffleQuestions: true },
      (ids) => {
        expect(ids).toHaveLength(4);
        expect(ids.slice(0, 3).every((id) => id.startsWith('bank-'))).toBe(true);
        expect(['c1', 'c2']).toContain(ids[3]);
      },
    ],
  ])('when %s', (_what, rest, check) => {
    for (const seed of SEEDS) check(drawPaper(version(rest), seed)!.questionIds);
  });

  it('when the same seed draws again, then it is the same paper, wherever it is drawn', () => {
    const v = version({ draw: 4, shuffleQuestions: true, shuffleOptions: true });
    for (const seed of SEEDS) expect(drawPaper(v, seed)).toEqual(drawPaper(v, seed));
    expect(drawPaper(v, 12345)).toMatchObject({ seed: 12345 });
  });

  it.each<[string, Parameters<typeof version>[0]]>([
    ['questions are drawn', { draw: 4 }],
    ['questions are shuffled', { shuffleQuestions: true }],
    ['options are shuffled', { shuffleOptions: true }],
  ])('when %s, then different seeds give different papers', (_what, rest) => {
    const papers = new Set(SEEDS.map((seed) => JSON.stringify(drawPaper(version(rest), seed)!.questionIds)));
    const options = new Set(SEEDS.map((seed) => JSON.stringify(drawPaper(version(rest), seed)!.options)));
    expect(Math.max(papers.size, options.size)).toBeGreaterThan(SEEDS.length / 2);
  });

  it('when options are shuffled, then each multiple-choice question given has its own order of all its options', () => {
    const v = version({ draw: 2, choicesDraw: 1, shuffleOptions: true });
    for (const seed of SEEDS) {
      const paper = drawPaper(v, seed)!;
      const given = CHOICES.filter((c) => paper.questionIds.includes(c.id));
      // Only the multiple-choice questions given: a yes/no question or one not given has no option order.
      expect(Object.keys(paper.options)).toEqual(given.map((c) => c.id));
      for (const c of given) expect(sorted(paper.options[c.id]!)).toEqual(sorted(c.options.map((o) => o.id)));
    }
  });

  it('when a question of two options is shuffled, then either order comes, about as often', () => {
    const v = { ...version({ shuffleOptions: true }), questions: [question('pair', 1, ['left', 'right'])] };
    const firsts = SEEDS.map((seed) => drawPaper(v, seed)!.options.pair![0]);
    expect(firsts.filter((o) => o === 'left').length).toBeGreaterThan(SEEDS.length / 4);
    expect(firsts.filter((o) => o === 'right').length).toBeGreaterThan(SEEDS.length / 4);
  });

  it('when options are not shuffled, then the paper holds no option order', () => {
    expect(drawPaper(version({ draw: 4 }), 1)!.options).toEqual({});
  });

  it.each([
    ['the attempt has no paper, then every question, in the version order', null, IN_ORDER],
    [
      'the paper gives some questions in its own order, then those, in the version order',
      { seed: 1, questionIds: ['c2', 'bank-5', 'bank-2'], options: {} },
      ['bank-2', 'bank-5', 'c2'],
    ],
  ])('when %s', (_what, paper, given) => {
    const questions = [...BANK, ...CHOICES];
    expect(givenQuestions(questions, paper).map((q) => q.id)).toEqual(given);
  });
});
