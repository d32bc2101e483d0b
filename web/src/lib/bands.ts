/** SPEC §4 performance bands by percentage: 90 and above, 80 to 89, 70 to 79, below 70. */
export type PerformanceLevel = 'Excellent' | 'Good' | 'Satisfactory' | 'Needs Improvement';
export type Band = 'excellent' | 'good' | 'satisfactory' | 'low';

export function bandOf(percentage: number): Band {
  if (percentage >= 90) return 'excellent';
  if (percentage >= 80) return 'good';
  if (percentage >= 70) return 'satisfactory';
  return 'low';
}

const levels: Record<Band, PerformanceLevel> = {
  excellent: 'Excellent',
  good: 'Good',
  satisfactory: 'Satisfactory',
  low: 'Needs Improvement',
};

export const performanceLevel = (percentage: number): PerformanceLevel => levels[bandOf(percentage)];

/** The fewest of `totalPoints` that pass against `passingScore` percent: score × 100 ≥ passingScore × total. */
export const pointsToPass = (passingScore: number, totalPoints: number) =>
  Math.ceil((passingScore * totalPoints) / 100);
