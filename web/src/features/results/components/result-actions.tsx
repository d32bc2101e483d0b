import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ui';
import { notify, notifyFailure } from '../../../lib/toast';
import { AdminT, adminT, useAdminT } from '../../../i18n/admin/admin-i18n';
import {
  certificateFileName,
  certificateRequest,
  reportFileName,
  reportRequest,
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
  const t = useAdminT();
  const [asked, setAsked] = useState<Asked>(null);
  const report = useFileDownload();
  const certificate = useFileDownload();
  const [resend, { isLoading: resending }] = useResendCertificateMutation();
  const [remove, { isLoading: deleting }] = useDeleteResultMutation();

  const downloadReport = async (result: Target): Promise<boolean> => {
    try {
      await report.download(reportRequest(result._id), reportFileName(result.student.name));
      notify.success(adminT('results.actions.pdfDownloaded'));
      return true;
    } catch (err) {
      notifyFailure(err, adminT('results.actions.pdfFailed'), { serverMessage: false });
      return false;
    }
  };

  const downloadCertificate = async (result: Target) => {
    try {
      await certificate.download(
        certificateRequest(result._id),
        certificateFileName(result.student.name, result.student.email),
      );
    } catch (err) {
      notifyFailure(err, adminT('results.actions.certificateFailed'), { serverMessage: false });
    }
  };

  const resendCertificate = async (result: Target): Promise<boolean> => {
    try {
      await resend(result._id).unwrap();
      notify.success(adminT('results.actions.resent'));
      return true;
    } catch (err) {
      notifyFailure(err, adminT('results.actions.resendFailed'));
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
        notify.success(adminT('results.actions.deleted'));
        onDeleted?.(result);
        done = true;
      } catch (err) {
        notifyFailure(err, adminT('results.actions.deleteFailed'));
      }
    }
    if (done) setAsked(null);
  };

  // The student the dialog asks about: the name in bold, the e-mail after it.
  const who = { name: asked?.result.student.name ?? '', email: asked?.result.student.email ?? '' };
  const bold = { 0: <strong /> };
  const close = () => setAsked(null);

  const dialogs = (
    <>
      <ConfirmDialog
        open={asked?.kind === 'pdf'}
        title={t('results.actions.pdfTitle')}
        message={
          <p aria-live="polite">
            {report.busy ? (
              t('results.actions.pdfPreparing')
            ) : (
              <AdminT id={'results.actions.pdfConfirm'} values={who} components={bold} />
            )}
          </p>
        }
        confirmLabel={t('results.actions.pdfConfirmLabel')}
        busy={report.busy}
        onConfirm={confirm}
        onCancel={close}
      />
      <ConfirmDialog
        open={asked?.kind === 'resend'}
        title={t('results.actions.resendTitle')}
        message={
          <p>
            <AdminT id={'results.actions.resendConfirm'} values={who} components={bold} />
          </p>
        }
        confirmLabel={t('results.actions.resendConfirmLabel')}
        busy={resending}
        onConfirm={confirm}
        onCancel={close}
      />
      <ConfirmDialog
        open={asked?.kind === 'delete'}
        title={t('results.actions.deleteTitle')}
        tone="danger"
        message={
          <>
            <p>
              <AdminT id={'results.actions.deleteConfirm'} values={who} components={bold} />
            </p>
            <p className="muted">{t('results.actions.deleteWarning')}</p>
          </>
        }
        confirmLabel={t('results.actions.deleteConfirmLabel')}
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
