import { bandOf, type Band } from '../../lib/bands';
import { Badge, type BadgeTone } from './badge';

/** The colour of a score by its SPEC §4 band: 90+, 80–89, 70–79, below 70. */
export const bandTone: Record<Band, BadgeTone> = {
  excellent: 'success',
  good: 'info',
  satisfactory: 'warning',
  low: 'danger',
};

export function PercentageBadge({ percentage }: { percentage: number }) {
  return <Badge tone={bandTone[bandOf(percentage)]}>{`${Math.round(percentage)}%`}</Badge>;
}

export function PassBadge({ passed }: { passed: boolean }) {
  return <Badge tone={passed ? 'success' : 'danger'}>{passed ? 'Passed' : 'Failed'}</Badge>;
}
