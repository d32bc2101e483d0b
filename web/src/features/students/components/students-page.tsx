import { useEffect, useState } from 'react';
import { Upload, UserPlus, Users } from 'lucide-react';
import { Button, Card, ListTable, PageNav, SearchInput, Select } from '../../../components/ui';
import { useDebounced } from '../../../lib/hooks';
import { notifyFailure } from '../../../lib/toast';
import { STATUS_OPTIONS, useGetStudentsQuery } from '../api/students-api';
import type { StatusFilter, Student } from '../api/types';
import { useCopyLink } from '../hooks/use-copy-link';
import { useInviteDeliveries } from '../hooks/use-invite-deliveries';
import { ExtraTimeModal } from './extra-time';
import { ImportStudentsDialog } from './import-students-dialog';
import { InviteStudentModal } from './invite-student-modal';
import { studentColumns } from './student-columns';
import { DeleteStudentDialog, ResendInvitationDialog } from './student-dialogs';

const PAGE_SIZE = 20;
const SEARCH_DELAY_MS = 300;

export function StudentsPage() {
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
  const { copiedId, copyUrl } = useCopyLink();

  useEffect(() => {
    if (loadError) notifyFailure(loadError, 'Failed to load students', { serverMessage: false });
  }, [loadError]);
  useEffect(() => setPage(1), [settledSearch, status]);

  const students = data?.students ?? [];
  const deliveryOf = useInviteDeliveries(students.map((s) => s._id));
  const columns = studentColumns({
    deliveryOf,
    copiedId,
    onCopy: copyUrl,
    onExtraTime: setExtraTimeTarget,
    onResend: setResendTarget,
    onDelete: setDeleteTarget,
  });

  return (
    <div className="stack">
      <Card
        title="Students"
        actions={
          <div className="row-actions">
            <Button
              variant="secondary"
              icon={<Upload size={18} aria-hidden="true" />}
              onClick={() => setImporting(true)}
            >
              Import CSV
            </Button>
            <Button icon={<UserPlus size={18} aria-hidden="true" />} onClick={() => setInviting(true)}>
              Invite Student
            </Button>
          </div>
        }
      >
        <div className="toolbar toolbar--filters">
          <SearchInput
            label="Search students"
            placeholder="Search by name or email"
            value={search}
            onChange={setSearch}
          />
          <Select
            label="Status"
            options={STATUS_OPTIONS}
            value={status}
            onChange={(e) => setStatus(e.target.value as StatusFilter)}
          />
        </div>
        <ListTable
          loading={isLoading}
          loadingLabel="Loading students"
          fetching={isFetching}
          caption="Students"
          columns={columns}
          rows={students}
          rowKey={(s) => s._id}
          empty={{
            icon: <Users size={28} />,
            title: 'No students found',
            description: search || status !== 'all' ? 'No student matches this search or filter.' : undefined,
          }}
        />
        {data && (
          <PageNav
            label="Student pages"
            pagination={data.pagination}
            page={page}
            onPage={setPage}
            unit={{ one: 'student', other: 'students' }}
          />
        )}
      </Card>

      <InviteStudentModal open={inviting} onClose={() => setInviting(false)} />
      <ImportStudentsDialog open={importing} onClose={() => setImporting(false)} />
      <ExtraTimeModal student={extraTimeTarget} onClose={() => setExtraTimeTarget(null)} />
      <ResendInvitationDialog student={resendTarget} onClose={() => setResendTarget(null)} />
      <DeleteStudentDialog student={deleteTarget} onClose={() => setDeleteTarget(null)} />
    </div>
  );
}
