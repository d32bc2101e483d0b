import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ui';
import { notify, notifyFailure } from '../../../lib/toast';
import {
  certificateFileName,
  certificatePath,
  reportFileName,
  reportPath,
  useDeleteResultMutation,
  useResendCertificateMutation,
} from '../api/results-api';
import type { ResultRow } from '../api/types';
import { useFileDownload } from '../../../lib/file-download';

type Asked = { kind: 'pdf' | 'resend' | 'delete'; result: ResultRow } | null;
type Target = Pick<ResultRow, '_id' | 'student'>;

/**
 * What an admin can do with a result — download its PDF report or certificate, resend the
 * certificate, delete it — with the SPEC §8 toasts. `ask` opens the confirmation for an action
 * (SPEC §2: row actions are confirmed); `dialogs` renders them.
 */
export function useResultActions({ onDeleted }: { onDeleted?: (result: ResultRow) => void } = {}) {
  const [asked, setAsked] = useState<Asked>(null);
  const report = useFileDownload();
  const certificate = useFileDownload();
  const [resend, { isLoading: resending }] = useResendCertificateMutation();
  const [remove, { isLoading: deleting }] = useDeleteResultMutation();

  const downloadReport = async (result: Target): Promise<boolean> => {
    try {
      await report.download(reportPath(result._id), reportFileName(result.student.name));
      notify.success('PDF report downloaded successfully');
      return true;
    } catch (err) {
      notifyFailure(err, 'Failed to download PDF report', { serverMessage: false });
      return false;
    }
  };

  const downloadCertificate = async (result: Target) => {
    try {
      await certificate.download(
        certificatePath(result._id),
        certificateFileName(result.student.name, result.student.email),
      );
    } catch (err) {
      notifyFailure(err, 'Failed to download certificate', { serverMessage: false });
    }
  };

  const resendCertificate = async (result: Target): Promise<boolean> => {
    try {
      await resend(result._id).unwrap();
      notify.success('Certificate resent successfully');
      return true;
    } catch (err) {
      notifyFailure(err, 'Failed to resend certificate');
      return false;
    }
  };

  const confirm = async () => {
    if (!asked) return;
    const { kind, result } = asked;
    let done = false;
    if (kind === 'pdf') done = await downloadReport(result);
    else if (kind === 'resend') done = await resendCertificate(result);
    else {
      try {
        await remove(result._id).unwrap();
        notify.success('Assessment result deleted successfully');
        onDeleted?.(result);
        done = true;
      } catch (err) {
        notifyFailure(err, 'Failed to delete assessment result');
      }
    }
    if (done) setAsked(null);
  };

  const who = asked && (
    <>
      <strong>{asked.result.student.name}</strong> ({asked.result.student.email})
    </>
  );
  const close = () => setAsked(null);

  const dialogs = (
    <>
      <ConfirmDialog
        open={asked?.kind === 'pdf'}
        title="Download PDF Report"
        message={
          <p aria-live="polite">
            {report.busy ? 'Preparing the PDF report…' : <>Download the PDF report of the result of {who}?</>}
          </p>
        }
        confirmLabel="Download PDF Report"
        busy={report.busy}
        onConfirm={confirm}
        onCancel={close}
      />
      <ConfirmDialog
        open={asked?.kind === 'resend'}
        title="Resend Certificate"
        message={<p>Send the certificate to {who} again by e-mail?</p>}
        confirmLabel="Resend Certificate"
        busy={resending}
        onConfirm={confirm}
        onCancel={close}
      />
      <ConfirmDialog
        open={asked?.kind === 'delete'}
        title="Delete Result"
        tone="danger"
        message={
          <>
            <p>Delete the assessment result of {who}?</p>
            <p className="muted">Its report and certificate go with it. This cannot be undone.</p>
          </>
        }
        confirmLabel="Delete Result"
        busy={deleting}
        onConfirm={confirm}
        onCancel={close}
      />
    </>
  );

  return {
    ask: (kind: NonNullable<Asked>['kind'], result: ResultRow) => setAsked({ kind, result }),
    dialogs,
    downloadReport,
    downloadCertificate,
    preparingReport: report.busy,
    preparingCertificate: certificate.busy,
  };
}
