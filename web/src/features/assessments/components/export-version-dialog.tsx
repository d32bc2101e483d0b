import { Download } from 'lucide-react';
import { Button, Modal } from '../../../components/ui';
import { useFileDownload } from '../../../lib/file-download';
import { notifyFailure } from '../../../lib/toast';
import { adminT, useAdminT } from '../../../i18n/admin/admin-i18n';
import { exportFileName, exportRequest } from '../api/assessments-api';
import type { ExportFormat } from '../api/types';

/** Export Version N: the version as Moodle XML or a QTI 3.0 package, each with what it holds. */
export function ExportVersionDialog({ version, onClose }: { version: number | null; onClose: () => void }) {
  const t = useAdminT();
  const file = useFileDownload();
  const formats: { format: ExportFormat; label: string; hint: string }[] = [
    { format: 'moodle-xml', label: t('assessments.export.moodle'), hint: t('assessments.export.moodleHint') },
    { format: 'qti3', label: t('assessments.export.qti'), hint: t('assessments.export.qtiHint') },
  ];
  const download = async (format: ExportFormat) => {
    if (version === null) return;
    try {
      await file.download(exportRequest(version, format), exportFileName(version, format));
    } catch (err) {
      notifyFailure(err, adminT('assessments.export.failed'));
    }
  };
  return (
    <Modal
      open={version !== null}
      title={t('assessments.export.title', { version: version ?? 0 })}
      onClose={onClose}
      dismissible={!file.busy}
      size="sm"
    >
      <div className="stack">
        <p className="muted">{t('assessments.export.intro')}</p>
        {formats.map((f) => (
          <div key={f.format} className="export-format">
            <Button
              variant="secondary"
              icon={<Download size={18} aria-hidden="true" />}
              disabled={file.busy}
              onClick={() => void download(f.format)}
            >
              {f.label}
            </Button>
            <p className="muted">{f.hint}</p>
          </div>
        ))}
      </div>
    </Modal>
  );
}
