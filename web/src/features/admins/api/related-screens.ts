import { Archive, PlugZap, ScrollText, Webhook, type LucideIcon } from 'lucide-react';
import type { AdminMessageId } from '../../../i18n/admin/en';

/**
 * The super admins' other screens, reached from Admin Management: its page links to them, and the sidebar's Admins
 * entry stays highlighted on them, as their section.
 */
export const RELATED_SCREENS: { to: string; labelId: AdminMessageId; Icon: LucideIcon }[] = [
  { to: '/admin/audit', labelId: 'admins.list.auditLog', Icon: ScrollText },
  { to: '/admin/lms-connections', labelId: 'admins.list.lmsConnections', Icon: PlugZap },
  { to: '/admin/webhooks', labelId: 'admins.list.webhooks', Icon: Webhook },
  { to: '/admin/data-retention', labelId: 'admins.list.retention', Icon: Archive },
];
