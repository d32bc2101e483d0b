import { performanceLevel, pointsToPass, shownPercentage } from './shapes';

describe('the percentage every surface shows', () => {
  test.each([
    [139, 200, 69.5],
    [1399, 2000, 69.9],
    [7, 10, 70],
    [16, 23, 69.6],
    [2, 3, 66.7],
    [1, 3, 33.3],
    [8995, 10000, 89.9],
    [7001, 10000, 70],
    [0, 5, 0],
    [5, 5, 100],
    [0, 0, 0],
  ])('when %i of %i points are scored, then it reads %d', (part, whole, shown) => {
    expect(shownPercentage(part, whole)).toBe(shown);
  });

  test('when a score is below a whole-number mark, then it reads below it; at or above the mark, at or above it', () => {
    const misread: string[] = [];
    for (let whole = 1; whole <= 300; whole += 1) {
      for (let part = 0; part <= whole; part += 1) {
        const shown = shownPercentage(part, whole);
        for (let mark = 0; mark <= 100; mark += 1) {
          if (shown >= mark !== part * 100 >= mark * whole)
            misread.push(`${part}/${whole} as ${shown} against ${mark}`);
        }
        if (Math.abs(shown - (part * 100) / whole) >= 0.1) misread.push(`${part}/${whole} as ${shown}`);
      }
    }
    expect(misread).toEqual([]);
  });

  test('when the shown percentage is banded, then 69.95 % is not Satisfactory and 70 % is', () => {
    expect(performanceLevel(shownPercentage(1399, 2000))).toBe('Needs Improvement');
    expect(performanceLevel(shownPercentage(7, 10))).toBe('Satisfactory');
  });

  test.each([
    [70, 23, 17],
    [70, 10, 7],
    [70, 200, 140],
    [0, 23, 0],
    [100, 23, 23],
  ])('when the passing score is %i %% of %i points, then %i points pass', (passingScore, total, needed) => {
    expect(pointsToPass(passingScore, total)).toBe(needed);
    expect(needed * 100 >= passingScore * total).toBe(true);
    expect(needed === 0 || (needed - 1) * 100 < passingScore * total).toBe(true);
  });
});
