import { useEffect, useState } from 'react';
import { Download } from 'lucide-react';
import { ActionModal, FormField } from '../../../components/ui';
import { notify, notifyFailure } from '../../../lib/toast';
import { useImportStudentsMutation } from '../api/students-api';
import type { ImportReport } from '../api/types';

const students = (n: number) => `${n} ${n === 1 ? 'student' : 'students'}`;

const TEMPLATE =
  'name,email,phoneNumber,extraTimePercent,language\nAda Lovelace,ada@example.edu,+44 20 7946 0000,0,en\n';
const TEMPLATE_HREF = `data:text/csv;charset=utf-8,${encodeURIComponent(TEMPLATE)}`;

/** Bulk invitations: the server checks the file first (dry run), the admin confirms, then it imports. */
export function ImportStudentsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
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
      notifyFailure(err, 'Failed to check the file');
    }
  };

  const confirm = async () => {
    if (!file) return;
    try {
      const done = await runImport({ file, dryRun: false }).unwrap();
      notify.success(`${students(done.imported ?? done.valid)} invited`);
      onClose();
    } catch (err) {
      notifyFailure(err, 'Failed to send invitation');
    }
  };

  return (
    <ActionModal
      open={open}
      title="Import Students"
      onClose={onClose}
      submitLabel={report ? `Invite ${students(report.valid)}` : 'Check File'}
      onSubmit={report ? confirm : check}
      disabled={report ? report.valid === 0 : !file}
      busy={isLoading}
    >
      <div className="form">
        <p className="muted">
          One student per line with the columns name, email, phoneNumber, an optional extraTimePercent and an
          optional language (en, es, fr, pt or ar; empty: the student's browser language).{' '}
          <a href={TEMPLATE_HREF} download="students-template.csv">
            <Download size={14} aria-hidden="true" /> Download the template CSV
          </a>
        </p>
        <FormField label="CSV file">
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
          <section aria-label="Check result" aria-live="polite">
            <p>
              {report.valid} {report.valid === 1 ? 'student is' : 'students are'} ready to invite
              {report.problems.length > 0 ? `; ${report.problems.length} lines will be left out:` : '.'}
            </p>
            {report.problems.length > 0 && (
              <ul className="import-problems">
                {report.problems.map((p) => (
                  <li key={`${p.line}-${p.message}`}>
                    Line {p.line}: {p.message}
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
