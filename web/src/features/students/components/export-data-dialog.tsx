import { Download, FileArchive } from 'lucide-react';
import { Button, Modal } from '../../../components/ui';
import { useFileDownload } from '../../../lib/file-download';
import { formatDateTime } from '../../../lib/format';
import { notifyFailure } from '../../../lib/toast';
import { adminT, useAdminT } from '../../../i18n/admin/admin-i18n';
import {
  studentExportFileName,
  studentExportRequest,
  useGetStudentExportQuery,
  useRequestStudentExportMutation,
} from '../api/students-api';
import type { Student } from '../api/types';

/** While the services answer, the dialog looks again every 2 seconds (an export takes a few). */
const GATHERING_POLL_MS = 2_000;
const SERVICES = 5;

/**
 * "Export data": everything the product holds about a student (a subject-access request), gathered from every
 * service into one ZIP. Asked for on confirmation (the request is audited), followed while the services answer,
 * downloaded when all have.
 */
export function ExportDataDialog({ student, onClose }: { student: Student | null; onClose: () => void }) {
  const t = useAdminT();
  const id = student?._id ?? '';
  const current = useGetStudentExportQuery(id, { skip: !student });
  const { data: found } = useGetStudentExportQuery(id, {
    skip: !student,
    pollingInterval: current.data && !current.data.ready ? GATHERING_POLL_MS : 0,
  });
  const exported = current.isError ? undefined : found;
  const [ask, asking] = useRequestStudentExportMutation();
  const file = useFileDownload();

  const gather = async () => {
    try {
      await ask(id).unwrap();
    } catch (err) {
      notifyFailure(err, adminT('students.export.failed'));
    }
  };
  const download = async () => {
    if (!student) return;
    try {
      await file.download(studentExportRequest(id), studentExportFileName(student.name));
    } catch (err) {
      notifyFailure(err, adminT('students.export.downloadFailed'));
    }
  };

  return (
    <Modal
      open={student !== null}
      title={t('students.export.title', { name: student?.name ?? '' })}
      onClose={onClose}
      dismissible={!file.busy}
      size="sm"
    >
      <div className="stack">
        <p>{t('students.export.intro')}</p>
        <p role="status" aria-live="polite" className="muted">
          {exported?.ready && t('students.export.ready', { until: formatDateTime(exported.expiresAt) })}
          {exported &&
            !exported.ready &&
            t('students.export.gathering', { received: exported.received.length, total: SERVICES })}
        </p>
        {exported?.ready ? (
          <div>
            <Button
              icon={<Download size={18} aria-hidden="true" />}
              loading={file.busy}
              onClick={() => void download()}
            >
              {t('students.export.download')}
            </Button>
          </div>
        ) : (
          <div>
            <Button
              icon={<FileArchive size={18} aria-hidden="true" />}
              loading={asking.isLoading || (exported !== undefined && !exported.ready)}
              disabled={current.isLoading}
              onClick={() => void gather()}
            >
              {t('students.export.gather')}
            </Button>
          </div>
        )}
      </div>
    </Modal>
  );
}
