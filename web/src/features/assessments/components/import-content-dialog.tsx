import { useEffect, useId, useState } from 'react';
import { ActionModal, FormField } from '../../../components/ui';
import { notifyFailure } from '../../../lib/toast';
import { adminT, useAdminT } from '../../../i18n/admin/admin-i18n';
import { useDeleteAssessmentFileMutation, useImportAssessmentContentMutation } from '../api/assessments-api';
import { importedFiles, importedQuestionCount } from '../api/import-content';
import type { ImportMode, ImportPreview } from '../api/types';

interface ImportContentDialogProps {
  open: boolean;
  /** Whether there is content to add to: without it, an import replaces. */
  canAppend: boolean;
  onClose: () => void;
  /** The admin chose to open the file's questions in the editor (nothing is saved yet). */
  onImport: (preview: ImportPreview, mode: ImportMode, fileName: string) => void;
}

/**
 * Import Questions: the server reads the file (nothing saved) and answers what it holds; the admin sees how many
 * sections and questions of each type it makes and each item left out with its reason, chooses to replace the
 * content or add to it, then opens the result in the editor.
 */
export function ImportContentDialog({ open, canAppend, onClose, onImport }: ImportContentDialogProps) {
  const t = useAdminT();
  const modeLabel = useId();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [mode, setMode] = useState<ImportMode>('replace');
  const [read, { isLoading }] = useImportAssessmentContentMutation();
  const [deleteFile] = useDeleteAssessmentFileMutation();
  // A preview's files are stored already: one the admin does not import is let go of.
  const letGo = (unused: ImportPreview | null) => {
    if (unused) importedFiles(unused.content).forEach((f) => void deleteFile(f).catch(() => undefined));
  };
  const close = () => {
    letGo(preview);
    onClose();
  };

  useEffect(() => {
    if (open) {
      setFile(null);
      setPreview(null);
      setMode('replace');
    }
  }, [open]);

  const check = async () => {
    if (!file) return;
    try {
      setPreview(await read(file).unwrap());
    } catch (err) {
      notifyFailure(err, adminT('assessments.import.checkFailed'));
    }
  };

  const count = preview ? importedQuestionCount(preview.counts) : 0;
  return (
    <ActionModal
      open={open}
      title={t('assessments.import.title')}
      onClose={close}
      submitLabel={preview ? t('assessments.import.confirm', { count }) : t('assessments.import.check')}
      onSubmit={preview ? () => onImport(preview, canAppend ? mode : 'replace', file?.name ?? '') : check}
      disabled={preview ? count === 0 : !file}
      busy={isLoading}
    >
      <div className="form">
        <p className="muted">{t('assessments.import.intro')}</p>
        <FormField label={t('assessments.import.file')}>
          {(control) => (
            <input
              {...control}
              type="file"
              accept=".xml,.zip,.imscc,application/xml,text/xml,application/zip"
              className="input"
              onChange={(e) => {
                setFile(e.target.files?.[0] ?? null);
                letGo(preview);
                setPreview(null);
              }}
            />
          )}
        </FormField>
        {preview && (
          <section aria-label={t('assessments.import.result')} aria-live="polite">
            <ul className="import-counts">
              <li>{t('assessments.import.sections', { count: preview.counts.sections })}</li>
              <li>{t('assessments.import.yesNo', { count: preview.counts.yes_no })}</li>
              <li>{t('assessments.import.multipleChoice', { count: preview.counts.multiple_choice })}</li>
              <li>{t('assessments.import.fileUpload', { count: preview.counts.file_upload })}</li>
            </ul>
            {preview.leftOut.length > 0 && (
              <>
                <p>{t('assessments.import.leftOut', { count: preview.leftOut.length })}</p>
                <ul className="import-problems">
                  {preview.leftOut.map((l, i) => (
                    <li key={`${i}-${l.item}`}>
                      {t('assessments.import.leftOutItem', { item: l.item, reason: l.reason })}
                    </li>
                  ))}
                </ul>
              </>
            )}
            {canAppend && count > 0 && (
              <div className="field" role="radiogroup" aria-labelledby={modeLabel}>
                <p className="field__label" id={modeLabel}>
                  {t('assessments.import.mode')}
                </p>
                {(['replace', 'append'] as const).map((m) => (
                  <label key={m} className="check">
                    <input
                      type="radio"
                      className="check__box"
                      name="import-mode"
                      value={m}
                      checked={mode === m}
                      onChange={() => setMode(m)}
                    />
                    <span>
                      {t(m === 'replace' ? 'assessments.import.replace' : 'assessments.import.append')}
                    </span>
                  </label>
                ))}
              </div>
            )}
          </section>
        )}
      </div>
    </ActionModal>
  );
}
