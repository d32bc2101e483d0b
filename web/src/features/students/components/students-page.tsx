import { useEffect, useRef, useState } from 'react';
import { Upload, UserPlus, Users } from 'lucide-react';
import {
  Button,
  Card,
  ConfirmDialog,
  EmptyState,
  SearchInput,
  Select,
  Spinner,
  Table,
} from '../../../components/ui';
import { useDebounced } from '../../../lib/hooks';
import { notify, notifyFailure } from '../../../lib/toast';
import {
  assessmentUrl,
  STATUS_OPTIONS,
  useDeleteStudentMutation,
  useGetStudentsQuery,
  useResendInvitationMutation,
  useGetInviteDeliveriesQuery,
  type StudentListQuery,
} from '../api/students-api';
import type { Student } from '../api/types';
import { ExtraTimeModal } from './extra-time';
import { ImportStudentsDialog } from './import-students-dialog';
import { InviteStudentModal } from './invite-student-modal';
import { studentColumns } from './student-columns';

const PAGE_SIZE = 20;
const COPIED_MS = 2000;
const SEARCH_DELAY_MS = 300;
const DELIVERY_POLL_MS = 5000;

export function StudentsPage() {
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<StudentListQuery['status']>('all');
  const [page, setPage] = useState(1);
  const settledSearch = useDebounced(search, SEARCH_DELAY_MS);
  const {
    data,
    isLoading,
    isFetching,
    error: loadError,
  } = useGetStudentsQuery({ search: settledSearch, status, page, limit: PAGE_SIZE });
  const [resend, { isLoading: resending }] = useResendInvitationMutation();
  const [remove, { isLoading: deleting }] = useDeleteStudentMutation();
  const [inviting, setInviting] = useState(false);
  const [importing, setImporting] = useState(false);
  const [resendTarget, setResendTarget] = useState<Student | null>(null);
  const [deleteTarget, setDeleteTarget] = useState<Student | null>(null);
  const [extraTimeTarget, setExtraTimeTarget] = useState<Student | null>(null);
  const [copiedId, setCopiedId] = useState<string | null>(null);
  const copiedTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => {
    if (loadError) notifyFailure(loadError, 'Failed to load students', { serverMessage: false });
  }, [loadError]);
  useEffect(() => () => clearTimeout(copiedTimer.current), []);
  useEffect(() => setPage(1), [settledSearch, status]);

  const students = data?.students ?? [];
  const pagination = data?.pagination;
  const ids = students.map((s) => s._id);
  // Mails go out after the invite returns: while one is still queued, look again every few seconds.
  const [deliveryPoll, setDeliveryPoll] = useState(0);
  const { data: deliveries = [] } = useGetInviteDeliveriesQuery(ids, {
    skip: ids.length === 0,
    pollingInterval: deliveryPoll,
  });
  const deliveryOf = new Map(deliveries.map((d) => [d.studentId, d]));
  const anyQueued = deliveries.some((d) => d.status === 'queued');
  useEffect(() => setDeliveryPoll(anyQueued ? DELIVERY_POLL_MS : 0), [anyQueued]);

  const copyUrl = async (student: Student) => {
    try {
      const url = assessmentUrl(student);
      if (!url) throw new Error('no link');
      await navigator.clipboard.writeText(url);
      notify.success('Assessment URL copied to clipboard');
      setCopiedId(student._id);
      clearTimeout(copiedTimer.current);
      copiedTimer.current = setTimeout(() => setCopiedId(null), COPIED_MS);
    } catch {
      notify.error('Failed to copy URL');
    }
  };

  const confirmResend = async () => {
    if (!resendTarget) return;
    try {
      await resend(resendTarget._id).unwrap();
      notify.success(`Invitation sent to ${resendTarget.name}`);
      setResendTarget(null);
    } catch (err) {
      notifyFailure(err, 'Failed to resend assessment invitation');
    }
  };

  const confirmDelete = async () => {
    if (!deleteTarget) return;
    try {
      await remove(deleteTarget._id).unwrap();
      notify.success('Student deleted successfully');
      setDeleteTarget(null);
    } catch (err) {
      notifyFailure(err, 'Failed to delete student');
    }
  };

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
            onChange={(e) => setStatus(e.target.value as StudentListQuery['status'])}
          />
        </div>
        {isLoading ? (
          <div className="center-block">
            <Spinner label="Loading students" />
          </div>
        ) : (
          <div aria-busy={isFetching}>
            <Table
              caption="Students"
              columns={columns}
              rows={students}
              rowKey={(s) => s._id}
              empty={
                <EmptyState
                  icon={<Users size={28} />}
                  title="No students found"
                  description={
                    search || status !== 'all' ? 'No student matches this search or filter.' : undefined
                  }
                />
              }
            />
          </div>
        )}
        {pagination && pagination.totalPages > 1 && (
          <nav className="pager" aria-label="Student pages">
            <Button variant="secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              Previous
            </Button>
            <span aria-live="polite">
              Page {pagination.currentPage} of {pagination.totalPages} ({pagination.totalResults} students)
            </span>
            <Button
              variant="secondary"
              disabled={page >= pagination.totalPages}
              onClick={() => setPage(page + 1)}
            >
              Next
            </Button>
          </nav>
        )}
      </Card>

      <InviteStudentModal open={inviting} onClose={() => setInviting(false)} />
      <ImportStudentsDialog open={importing} onClose={() => setImporting(false)} />
      <ExtraTimeModal student={extraTimeTarget} onClose={() => setExtraTimeTarget(null)} />
      <ConfirmDialog
        open={resendTarget !== null}
        title="Resend Invitation"
        message={
          <p>
            Send the assessment invitation to <strong>{resendTarget?.name}</strong> ({resendTarget?.email})
            again? The link stays the same and is valid again for its full period.
          </p>
        }
        confirmLabel="Resend Invitation"
        busy={resending}
        onConfirm={confirmResend}
        onCancel={() => setResendTarget(null)}
      />
      <ConfirmDialog
        open={deleteTarget !== null}
        title="Delete Student"
        tone="danger"
        message={
          <>
            <p>
              Delete <strong>{deleteTarget?.name}</strong> ({deleteTarget?.email})?
            </p>
            <p className="muted">
              Their invitation, attempts, answers, results and certificates are erased everywhere. This cannot
              be undone.
            </p>
          </>
        }
        confirmLabel="Delete Student"
        busy={deleting}
        onConfirm={confirmDelete}
        onCancel={() => setDeleteTarget(null)}
      />
    </div>
  );
}
