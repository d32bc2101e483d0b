import { useEffect, useState } from 'react';
import { Download } from 'lucide-react';
import { ActionModal, FormField } from '../../../components/ui';
import { notify, notifyFailure } from '../../../lib/toast';
import { adminT, useAdminT } from '../../../i18n/admin/admin-i18n';
import { useImportStudentsMutation } from '../api/students-api';
import type { ImportReport } from '../api/types';

/** The template file's contents: the columns the service reads and a sample row, the same in every language. */
const TEMPLATE =
  // eslint-disable-next-line lingui/no-unlocalized-strings -- a CSV file's header and sample row, not screen words
  'name,email,phoneNumber,extraTimePercent,language\nAda Lovelace,ada@example.edu,+44 20 7946 0000,0,en\n';
const TEMPLATE_HREF = `data:text/csv;charset=utf-8,${encodeURIComponent(TEMPLATE)}`;

/** Bulk invitations: the server checks the file first (dry run), the admin confirms, then it imports. */
export function ImportStudentsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const t = useAdminT();
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [runImport, { isLoading }] = useImportStudentsMutation();

  useEffect(() => {
    if (open) {
      setFile(null);
      setReport(null);
    }
  }, [open]);

  const check = async () => {
    if (!file) return;
    try {
      setReport(await runImport({ file, dryRun: true }).unwrap());
    } catch (err) {
      notifyFailure(err, adminT('students.import.checkFailed'));
    }
  };

  const confirm = async () => {
    if (!file) return;
    try {
      const done = await runImport({ file, dryRun: false }).unwrap();
      notify.success(adminT('students.import.invited', { count: done.imported ?? done.valid }));
      onClose();
    } catch (err) {
      notifyFailure(err, adminT('students.import.failed'));
    }
  };

  return (
    <ActionModal
      open={open}
      title={t('students.import.title')}
      onClose={onClose}
      submitLabel={report ? t('students.import.invite', { count: report.valid }) : t('students.import.check')}
      onSubmit={report ? confirm : check}
      disabled={report ? report.valid === 0 : !file}
      busy={isLoading}
    >
      <div className="form">
        <p className="muted">
          {t('students.import.intro')}{' '}
          <a href={TEMPLATE_HREF} download="students-template.csv">
            <Download size={14} aria-hidden="true" /> {t('students.import.template')}
          </a>
        </p>
        <FormField label={t('students.import.file')}>
          {(control) => (
            <input
              {...control}
              type="file"
              accept=".csv,text/csv"
              className="input"
              onChange={(e) => {
                setFile(e.target.files?.[0] ?? null);
                setReport(null);
              }}
            />
          )}
        </FormField>
        {report && (
          <section aria-label={t('students.import.result')} aria-live="polite">
            <p>
              {report.problems.length > 0
                ? t('students.import.readyWithProblems', {
                    count: report.valid,
                    problems: report.problems.length,
                  })
                : t('students.import.ready', { count: report.valid })}
            </p>
            {report.problems.length > 0 && (
              <ul className="import-problems">
                {report.problems.map((p) => (
                  <li key={`${p.line}-${p.message}`}>
                    {t('students.import.problem', { line: p.line, message: p.message })}
                  </li>
                ))}
              </ul>
            )}
          </section>
        )}
      </div>
    </ActionModal>
  );
}
