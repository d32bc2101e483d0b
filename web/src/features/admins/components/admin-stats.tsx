import { ShieldCheck, UserCheck, Users, UserX } from 'lucide-react';
import { StatCard } from '../../../components/ui';
import type { Admin } from '../../auth/api/types';
import { useAdminT } from '../../../i18n/admin/admin-i18n';

/** The four counts over every admin account, whatever the search. */
export function AdminStatCards({ admins }: { admins: Admin[] }) {
  const t = useAdminT();
  const count = (keep: (a: Admin) => boolean) => admins.filter(keep).length;
  return (
    <div className="stats-grid">
      <StatCard label={t('admins.stats.total')} value={admins.length} icon={<Users size={22} />} />
      <StatCard
        label={t('admins.stats.active')}
        value={count((a) => a.status === 'active')}
        icon={<UserCheck size={22} />}
        tone="success"
      />
      <StatCard
        label={t('admins.stats.disabled')}
        value={count((a) => a.status === 'disabled')}
        icon={<UserX size={22} />}
        tone="danger"
      />
      <StatCard
        label={t('admins.stats.superAdmins')}
        value={count((a) => a.role === 'super_admin')}
        icon={<ShieldCheck size={22} />}
        tone="accent"
      />
    </div>
  );
}
