import { useAdminT } from '../../../i18n/admin/admin-i18n';
import type { AdminMessageId } from '../../../i18n/admin/en';

/** What each event type means, in words; the type's own name is what the receiver sees. */
const MEANING: Record<string, AdminMessageId> = {
  'result.recorded': 'webhooks.event.result.recorded',
  'certificate.issued': 'webhooks.event.certificate.issued',
  'student.invited': 'webhooks.event.student.invited',
  'student.started': 'webhooks.event.student.started',
  'student.deleted': 'webhooks.event.student.deleted',
};

/** An event type: its name as sent, and what it means. */
export function EventLabel({ type }: { type: string }) {
  const t = useAdminT();
  const meaning = MEANING[type];
  return (
    <span className="webhook-event">
      <code>{type}</code>
      {meaning && <span className="muted">{t(meaning)}</span>}
    </span>
  );
}
