import { bandOf, type Band } from '../../lib/bands';
import { formatPercentage } from '../../lib/format';
import { Badge, type BadgeTone } from './badge';

/** The colour of a score by its SPEC §4 band: 90+, 80–89, 70–79, below 70. */
export const bandTone: Record<Band, BadgeTone> = {
  excellent: 'success',
  good: 'info',
  satisfactory: 'warning',
  low: 'danger',
};

export function PercentageBadge({ percentage }: { percentage: number }) {
  return <Badge tone={bandTone[bandOf(percentage)]}>{formatPercentage(percentage)}</Badge>;
}

/** Passed or failed, in the words the page gives (its language's 'Passed' and 'Failed'). */
export function PassBadge({ passed, words }: { passed: boolean; words: { passed: string; failed: string } }) {
  return <Badge tone={passed ? 'success' : 'danger'}>{passed ? words.passed : words.failed}</Badge>;
}
