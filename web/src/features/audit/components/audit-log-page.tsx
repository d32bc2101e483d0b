import { useDeferredValue, useEffect, useState } from 'react';
import { ChevronLeft, ChevronRight, ScrollText } from 'lucide-react';
import { Button, Card, ListTable } from '../../../components/ui';
import { ExportCsvButton } from '../../../lib/file-download';
import { notifyFailure } from '../../../lib/toast';
import { adminT, useAdminT } from '../../../i18n/admin/admin-i18n';
import { AUDIT_PAGE_SIZE, auditExport, useGetAuditLogQuery, type AuditQuery } from '../api/audit-api';
import { auditColumns } from './audit-columns';
import { AuditFilters, NO_FILTERS, dayBoundary, type AuditFilterValues } from './audit-filters';

/** The filters as the API takes them; empty ones are left out. */
function toQuery(values: AuditFilterValues): Record<string, string> {
  const query: Record<string, string | undefined> = {
    q: values.q.trim() || undefined,
    actor: values.actor || undefined,
    action: values.action || undefined,
    from: dayBoundary(values.from),
    to: dayBoundary(values.to, true),
  };
  return Object.fromEntries(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined));
}

/**
 * Who did what and when, across the system, newest first (super admins): searchable, filtered by admin, action
 * and dates, a page at a time (older pages follow the last entry's time), exportable as CSV.
 */
export function AuditLogPage() {
  const t = useAdminT();
  const [values, setValues] = useState<AuditFilterValues>(NO_FILTERS);
  // Older pages: the cursor of each page shown before this one.
  const [cursors, setCursors] = useState<string[]>([]);
  const filters = toQuery(useDeferredValue(values));
  const before = cursors.at(-1);
  const query: AuditQuery = { ...filters, limit: AUDIT_PAGE_SIZE, ...(before ? { before } : {}) };
  const { data: entries = [], isLoading, isFetching, error } = useGetAuditLogQuery(query);
  useEffect(() => {
    if (error) notifyFailure(error, adminT('audit.page.loadFailed'), { serverMessage: false });
  }, [error]);

  const change = (next: Partial<AuditFilterValues>) => {
    setValues((current) => ({ ...current, ...next }));
    setCursors([]);
  };
  const filtered = Object.keys(filters).length > 0;
  const last = entries.at(-1);

  return (
    <div className="stack">
      <Card
        title={t('audit.page.title')}
        actions={
          <ExportCsvButton
            file={auditExport(filters)}
            name="audit-log"
            failure={t('audit.page.exportFailed')}
            label={t('common.exportCsv')}
          />
        }
      >
        <AuditFilters values={values} onChange={change} />
        <ListTable
          loading={isLoading}
          loadingLabel={t('audit.page.loading')}
          fetching={isFetching}
          caption={t('audit.page.caption')}
          columns={auditColumns}
          rows={entries}
          rowKey={(e) => e._id}
          empty={{
            icon: <ScrollText size={28} />,
            title: t('audit.page.emptyTitle'),
            description: filtered ? t('audit.page.emptyFiltered') : undefined,
          }}
        />
        {(cursors.length > 0 || entries.length === AUDIT_PAGE_SIZE) && (
          <div className="row-actions pager-nav">
            <Button
              variant="secondary"
              size="sm"
              icon={<ChevronLeft size={16} aria-hidden="true" />}
              disabled={cursors.length === 0}
              onClick={() => setCursors((c) => c.slice(0, -1))}
            >
              {t('audit.page.newer')}
            </Button>
            <Button
              variant="secondary"
              size="sm"
              icon={<ChevronRight size={16} aria-hidden="true" />}
              disabled={!last || entries.length < AUDIT_PAGE_SIZE}
              onClick={() => last && setCursors((c) => [...c, last.createdAt])}
            >
              {t('audit.page.older')}
            </Button>
          </div>
        )}
      </Card>
    </div>
  );
}
