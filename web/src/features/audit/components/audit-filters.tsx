import { Input, SearchInput, Select } from '../../../components/ui';
import { useGetAdminsQuery } from '../../admins/api/admins-api';
import { useAdminT } from '../../../i18n/admin/admin-i18n';
import { KNOWN_ACTIONS, actionLabel } from '../api/audit-api';

export interface AuditFilterValues {
  q: string;
  actor: string;
  action: string;
  /** `YYYY-MM-DD`, the admin's own calendar days. */
  from: string;
  to: string;
}

export const NO_FILTERS: AuditFilterValues = { q: '', actor: '', action: '', from: '', to: '' };

/** The actions to filter by, in the order of their names. */
const actionOptions = () =>
  KNOWN_ACTIONS.map((value) => ({ value, label: actionLabel(value) })).sort((a, b) =>
    a.label.localeCompare(b.label),
  );

/** The day's start in the admin's time zone, as the API's ISO time; `to` is the start of the day after. */
export function dayBoundary(day: string, after = false): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d + (after ? 1 : 0)).toISOString();
}

export function AuditFilters({
  values,
  onChange,
}: {
  values: AuditFilterValues;
  onChange: (next: Partial<AuditFilterValues>) => void;
}) {
  const { data: admins = [] } = useGetAdminsQuery();
  const t = useAdminT();
  return (
    <div className="toolbar toolbar--filters toolbar--audit">
      <SearchInput
        label={t('audit.filters.search')}
        placeholder={t('audit.filters.searchPlaceholder')}
        value={values.q}
        onChange={(q) => onChange({ q })}
      />
      <Select
        label={t('audit.filters.admin')}
        placeholder={t('audit.filters.allAdmins')}
        options={admins.map((a) => ({ value: a._id, label: a.name }))}
        value={values.actor}
        onChange={(e) => onChange({ actor: e.target.value })}
      />
      <Select
        label={t('audit.filters.action')}
        placeholder={t('audit.filters.allActions')}
        options={actionOptions()}
        value={values.action}
        onChange={(e) => onChange({ action: e.target.value })}
      />
      <Input
        label={t('audit.filters.from')}
        type="date"
        value={values.from}
        onChange={(e) => onChange({ from: e.target.value })}
      />
      <Input
        label={t('audit.filters.to')}
        type="date"
        value={values.to}
        onChange={(e) => onChange({ to: e.target.value })}
      />
    </div>
  );
}
