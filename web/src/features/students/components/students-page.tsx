import { useEffect, useState } from 'react';
import { BellRing, Settings, Upload, UserPlus, Users } from 'lucide-react';
import { Button, Card, ListTable, PageNav, SearchInput, Select } from '../../../components/ui';
import { useDebounced } from '../../../lib/hooks';
import { notify, notifyFailure } from '../../../lib/toast';
import { adminT, pagerWords, useAdminT } from '../../../i18n/admin/admin-i18n';
import { STATUS_OPTIONS, useGetStudentsQuery, useRemindStudentsMutation } from '../api/students-api';
import type { StatusFilter, Student } from '../api/types';
import { useCopyLink } from '../hooks/use-copy-link';
import { useInviteDeliveries } from '../hooks/use-invite-deliveries';
import { ExportDataDialog } from './export-data-dialog';
import { ExtraTimeModal } from './extra-time';
import { ImportStudentsDialog } from './import-students-dialog';
import { InviteStudentModal } from './invite-student-modal';
import { ReminderSettingsModal } from './reminder-settings-modal';
import { studentColumns } from './student-columns';
import {
  DeleteStudentDialog,
  RemindAllDialog,
  RemindStudentDialog,
  ResendInvitationDialog,
} from './student-dialogs';

const PAGE_SIZE = 20;
const SEARCH_DELAY_MS = 300;

export function StudentsPage() {
  const t = useAdminT();
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<StatusFilter>('all');
  const [page, setPage] = useState(1);
  const settledSearch = useDebounced(search, SEARCH_DELAY_MS);
  const {
    data,
    isLoading,
    isFetching,
    error: loadError,
  } = useGetStudentsQuery({ search: settledSearch, status, page, limit: PAGE_SIZE });
  const [inviting, setInviting] = useState(false);
  const [importing, setImporting] = useState(false);
  const [resendTarget, setResendTarget] = useState<Student | null>(null);
  const [deleteTarget, setDeleteTarget] = useState<Student | null>(null);
  const [extraTimeTarget, setExtraTimeTarget] = useState<Student | null>(null);
  const [reminderSettings, setReminderSettings] = useState(false);
  const [remindTarget, setRemindTarget] = useState<Student | null>(null);
  const [exportTarget, setExportTarget] = useState<Student | null>(null);
  const [remindAllCount, setRemindAllCount] = useState<number | null>(null);
  const [countRemindable, { isLoading: counting }] = useRemindStudentsMutation();
  const filter = { search: settledSearch, status };
  const { copiedId, copyUrl } = useCopyLink();

  useEffect(() => {
    if (loadError) notifyFailure(loadError, adminT('students.page.loadFailed'), { serverMessage: false });
  }, [loadError]);
  useEffect(() => setPage(1), [settledSearch, status]);

  const askRemindAll = async () => {
    try {
      const count = await countRemindable({ ...filter, dryRun: true }).unwrap();
      if (count === 0) notify.info(adminT('students.remindAll.none'));
      else setRemindAllCount(count);
    } catch (err) {
      notifyFailure(err, adminT('students.remindAll.failed'));
    }
  };

  const students = data?.students ?? [];
  const deliveryOf = useInviteDeliveries(students.map((s) => s._id));
  const columns = studentColumns(t, {
    deliveryOf,
    copiedId,
    onCopy: copyUrl,
    onExtraTime: setExtraTimeTarget,
    onResend: setResendTarget,
    onRemind: setRemindTarget,
    onExport: setExportTarget,
    onDelete: setDeleteTarget,
  });

  return (
    <div className="stack">
      <Card
        title={t('students.page.title')}
        actions={
          <div className="row-actions">
            <Button
              variant="ghost"
              icon={<Settings size={18} aria-hidden="true" />}
              onClick={() => setReminderSettings(true)}
            >
              {t('students.reminderSettings.button')}
            </Button>
            <Button
              variant="secondary"
              icon={<BellRing size={18} aria-hidden="true" />}
              disabled={counting}
              onClick={askRemindAll}
            >
              {t('students.remindAll.button')}
            </Button>
            <Button
              variant="secondary"
              icon={<Upload size={18} aria-hidden="true" />}
              onClick={() => setImporting(true)}
            >
              {t('students.page.importCsv')}
            </Button>
            <Button icon={<UserPlus size={18} aria-hidden="true" />} onClick={() => setInviting(true)}>
              {t('students.page.invite')}
            </Button>
          </div>
        }
      >
        <div className="toolbar toolbar--filters">
          <SearchInput
            label={t('students.page.search')}
            placeholder={t('students.page.searchPlaceholder')}
            value={search}
            onChange={setSearch}
          />
          <Select
            label={t('students.page.status')}
            options={STATUS_OPTIONS}
            value={status}
            onChange={(e) => setStatus(e.target.value as StatusFilter)}
          />
        </div>
        <ListTable
          loading={isLoading}
          loadingLabel={t('students.page.loading')}
          fetching={isFetching}
          caption={t('students.page.caption')}
          columns={columns}
          rows={students}
          rowKey={(s) => s._id}
          empty={{
            icon: <Users size={28} />,
            title: t('students.page.emptyTitle'),
            description: search || status !== 'all' ? t('students.page.emptyFiltered') : undefined,
          }}
        />
        {data && (
          <PageNav
            label={t('students.pager.label')}
            pagination={data.pagination}
            page={page}
            onPage={setPage}
            words={pagerWords(t, data.pagination, 'students.pager.size')}
          />
        )}
      </Card>

      <InviteStudentModal open={inviting} onClose={() => setInviting(false)} />
      <ImportStudentsDialog open={importing} onClose={() => setImporting(false)} />
      <ExtraTimeModal student={extraTimeTarget} onClose={() => setExtraTimeTarget(null)} />
      <ResendInvitationDialog student={resendTarget} onClose={() => setResendTarget(null)} />
      <DeleteStudentDialog student={deleteTarget} onClose={() => setDeleteTarget(null)} />
      <ReminderSettingsModal open={reminderSettings} onClose={() => setReminderSettings(false)} />
      <RemindStudentDialog student={remindTarget} onClose={() => setRemindTarget(null)} />
      <ExportDataDialog student={exportTarget} onClose={() => setExportTarget(null)} />
      <RemindAllDialog filter={filter} count={remindAllCount} onClose={() => setRemindAllCount(null)} />
    </div>
  );
}
