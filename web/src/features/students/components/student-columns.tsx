import { Check, Clock, Copy, Mail, Trash2 } from 'lucide-react';
import {
  actionsColumn,
  Badge,
  IconButton,
  Person,
  type BadgeTone,
  type Column,
} from '../../../components/ui';
import { formatDate } from '../../../lib/format';
import { statusLabel } from '../api/students-api';
import type { InviteDelivery, Student } from '../api/types';

const statusTone: Record<Student['status'], BadgeTone> = {
  invited: 'info',
  started: 'warning',
  completed: 'success',
};

function DeliveryBadge({ delivery }: { delivery: InviteDelivery | undefined }) {
  if (!delivery || delivery.status === 'sent') return null;
  if (delivery.status === 'queued') return <Badge tone="neutral">Invite queued</Badge>;
  const reason = delivery.reason ?? 'The mail server refused the invitation';
  return (
    <span title={reason}>
      <Badge tone="danger">Invite failed</Badge>
      <span className="visually-hidden">: {reason}</span>
    </span>
  );
}

/** The Student Management table's columns: who, where they stand (with their invitation's delivery), and actions. */
export function studentColumns(actions: {
  deliveryOf: Map<string, InviteDelivery>;
  /** The student whose link was just copied (its button shows a check for a moment). */
  copiedId: string | null;
  onCopy(student: Student): void;
  onExtraTime(student: Student): void;
  onResend(student: Student): void;
  onDelete(student: Student): void;
}): Column<Student>[] {
  return [
    {
      key: 'student',
      header: 'Student',
      render: (s) => <Person name={s.name} email={s.email} details={s.phoneNumber ? [s.phoneNumber] : []} />,
    },
    {
      key: 'status',
      header: 'Status',
      render: (s) => (
        <div className="badge-stack">
          <Badge tone={statusTone[s.status]}>{statusLabel(s.status)}</Badge>
          {s.expired && <Badge tone="warning">Link expired</Badge>}
          {s.extraTimePercent > 0 && <Badge tone="accent">{`+${s.extraTimePercent}% time`}</Badge>}
          <DeliveryBadge delivery={actions.deliveryOf.get(s._id)} />
        </div>
      ),
    },
    { key: 'invited', header: 'Invited Date', render: (s) => formatDate(s.createdAt) },
    actionsColumn((s) => (
      <>
        <IconButton
          label={
            actions.copiedId === s._id ? `Link copied for ${s.name}` : `Copy assessment URL for ${s.name}`
          }
          icon={actions.copiedId === s._id ? <Check size={16} /> : <Copy size={16} />}
          className={actions.copiedId === s._id ? 'btn--success-text' : undefined}
          onClick={() => actions.onCopy(s)}
        />
        <IconButton
          label={`Set extra time for ${s.name}`}
          icon={<Clock size={16} />}
          onClick={() => actions.onExtraTime(s)}
        />
        <IconButton
          label={`Resend invitation to ${s.name}`}
          icon={<Mail size={16} />}
          onClick={() => actions.onResend(s)}
        />
        <IconButton
          label={`Delete ${s.name}`}
          icon={<Trash2 size={16} />}
          className="btn--danger-text"
          onClick={() => actions.onDelete(s)}
        />
      </>
    )),
  ];
}
