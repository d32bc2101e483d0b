import { performanceLevel } from './assessment';
import { distributionBands } from './result-views';

describe('the bands of a percentage', () => {
  it.each([
    [100, 'Excellent'],
    [90, 'Excellent'],
    [89, 'Good'],
    [80, 'Good'],
    [79, 'Satisfactory'],
    [70, 'Satisfactory'],
    [69, 'Needs Improvement'],
    [1, 'Needs Improvement'],
    [0, 'Needs Improvement'],
  ])('when the percentage is %i, then the performance level is %s', (percentage, level) => {
    expect(performanceLevel(percentage)).toBe(level);
  });

  it('when the item analysis shows the spread, then it has ten bands of ten points, the last one 90 to 100', () => {
    const counts = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
    expect(distributionBands(counts)).toEqual([
      { from: 0, to: 9, count: 0 },
      { from: 10, to: 19, count: 1 },
      { from: 20, to: 29, count: 2 },
      { from: 30, to: 39, count: 3 },
      { from: 40, to: 49, count: 4 },
      { from: 50, to: 59, count: 5 },
      { from: 60, to: 69, count: 6 },
      { from: 70, to: 79, count: 7 },
      { from: 80, to: 89, count: 8 },
      { from: 90, to: 100, count: 9 },
    ]);
  });
});
