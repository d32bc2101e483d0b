import { BellRing, Check, Clock, Copy, FileArchive, Mail, Trash2 } from 'lucide-react';
import {
  actionsColumn,
  Badge,
  IconButton,
  type BadgeTone,
  type Column,
  personColumn,
} from '../../../components/ui';
import { formatDate } from '../../../lib/format';
import { AdminT, useAdminT, type AdminTranslate } from '../../../i18n/admin/admin-i18n';
import { LANGUAGE_NAMES } from '../../../i18n/languages';
import { statusLabel } from '../api/students-api';
import type { InviteDelivery, Student } from '../api/types';

const statusTone: Record<Student['status'], BadgeTone> = {
  invited: 'info',
  started: 'warning',
  completed: 'success',
};

function DeliveryBadge({ delivery }: { delivery: InviteDelivery | undefined }) {
  const t = useAdminT();
  if (!delivery || delivery.status === 'sent') return null;
  const reminder = delivery.kind === 'reminder';
  if (delivery.status === 'queued') {
    return (
      <Badge tone="neutral">
        {t(reminder ? 'students.table.reminderQueued' : 'students.table.inviteQueued')}
      </Badge>
    );
  }
  const reason = delivery.reason ?? t('students.table.inviteRefused');
  return (
    <span title={reason}>
      <Badge tone="danger">
        {t(reminder ? 'students.table.reminderFailed' : 'students.table.inviteFailed')}
      </Badge>
      <span className="visually-hidden">: {reason}</span>
    </span>
  );
}

/** How often the student was reminded, and when last ('Reminded 2 times, last on Mar 4, 2025'); nothing before the first. */
function Reminders({ student }: { student: Student }) {
  const t = useAdminT();
  if (student.reminderCount === 0) return null;
  return (
    <p className="muted">
      {t('students.table.reminded', {
        count: student.reminderCount,
        date: formatDate(student.lastRemindedAt),
      })}
    </p>
  );
}

/** A reminder can go to a student who has not started while their link is open. */
const remindable = (s: Student) => s.status === 'invited' && !s.expired;

/**
 * The language the student reads Readiness in, by its own name and marked as that language; the
 * browser's when none was chosen.
 */
function StudentLanguage({ language }: { language: Student['language'] }) {
  const t = useAdminT();
  if (!language) return <p className="muted">{t('students.table.languageBrowser')}</p>;
  return (
    <p className="muted">
      <AdminT
        id={'students.table.language'}
        values={{ language: LANGUAGE_NAMES[language] }}
        components={{ 0: <bdi lang={language} /> }}
      />
    </p>
  );
}

/** The Student Management table's columns: who, where they stand (with their invitation's delivery), and actions. */
export function studentColumns(
  t: AdminTranslate,
  actions: {
    deliveryOf: Map<string, InviteDelivery>;
    /** The student whose link was just copied (its button shows a check for a moment). */
    copiedId: string | null;
    onCopy(student: Student): void;
    onExtraTime(student: Student): void;
    onResend(student: Student): void;
    onRemind(student: Student): void;
    onExport(student: Student): void;
    onDelete(student: Student): void;
  },
): Column<Student>[] {
  return [
    personColumn('student', t('students.table.student'), (s: Student) => ({
      name: s.name,
      email: s.email,
      details: s.phoneNumber ? [s.phoneNumber] : [],
    })),
    {
      key: 'status',
      header: t('students.table.status'),
      render: (s) => (
        <div className="badge-stack">
          <Badge tone={statusTone[s.status]}>{statusLabel(s.status)}</Badge>
          {s.expired && <Badge tone="warning">{t('students.table.linkExpired')}</Badge>}
          {s.extraTimePercent > 0 && (
            <Badge tone="accent">{t('students.table.extraTime', { percent: s.extraTimePercent })}</Badge>
          )}
          <DeliveryBadge delivery={actions.deliveryOf.get(s._id)} />
          <Reminders student={s} />
          <StudentLanguage language={s.language} />
        </div>
      ),
    },
    { key: 'invited', header: t('students.table.invitedDate'), render: (s) => formatDate(s.createdAt) },
    actionsColumn(
      (s) => (
        <>
          <IconButton
            label={
              actions.copiedId === s._id
                ? t('students.table.linkCopied', { name: s.name })
                : t('students.table.copyUrl', { name: s.name })
            }
            icon={actions.copiedId === s._id ? <Check size={16} /> : <Copy size={16} />}
            className={actions.copiedId === s._id ? 'btn--success-text' : undefined}
            onClick={() => actions.onCopy(s)}
          />
          <IconButton
            label={t('students.table.setExtraTime', { name: s.name })}
            icon={<Clock size={16} />}
            onClick={() => actions.onExtraTime(s)}
          />
          <IconButton
            label={t('students.table.resend', { name: s.name })}
            icon={<Mail size={16} />}
            onClick={() => actions.onResend(s)}
          />
          {remindable(s) && (
            <IconButton
              label={t('students.table.remind', { name: s.name })}
              icon={<BellRing size={16} />}
              onClick={() => actions.onRemind(s)}
            />
          )}
          <IconButton
            label={t('students.table.export', { name: s.name })}
            icon={<FileArchive size={16} />}
            onClick={() => actions.onExport(s)}
          />
          <IconButton
            label={t('students.table.delete', { name: s.name })}
            icon={<Trash2 size={16} />}
            className="btn--danger-text"
            onClick={() => actions.onDelete(s)}
          />
        </>
      ),
      t('students.table.actions'),
    ),
  ];
}
