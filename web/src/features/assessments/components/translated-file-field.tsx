import { useId, useState, type ChangeEvent } from 'react';
import { Trash2 } from 'lucide-react';
import { Badge } from '../../../components/ui';
import { AdminT, useAdminT } from '../../../i18n/admin/admin-i18n';
import { useAppDispatch } from '../../../lib/hooks';
import { notify } from '../../../lib/toast';
import { ACCEPT_ATTRIBUTE, ACCEPTED_FILE_TYPES, isAcceptedFile } from '../api/assessment-schema';
import { useDeleteAssessmentFileMutation } from '../api/assessments-api';
import { TransferError, uploadAssessmentFile } from '../api/file-transfer';
import type { TranslatableText, TranslatedFile } from '../api/translations';
import { languageName, type TranslationLanguage } from '../api/types';
import { QuestionFileChip } from './question-file-chip';

interface TranslatedFileFieldProps {
  /** The question's file as `translatableTexts` lists it: its English file's name and the field's label. */
  text: TranslatableText;
  language: TranslationLanguage;
  file: TranslatedFile | undefined;
  /** The uploaded file, or null once removed. */
  onChange: (file: TranslatedFile | null) => void;
}

/**
 * A question's downloadable file in one language: uploaded at once through the same endpoint,
 * checks and storage as the English file (`uploadAssessmentFile`), with its progress; Remove lets go of it, and
 * students then get the English file. While none is given it is "Missing", as an untranslated text is.
 */
export function TranslatedFileField({ text, language, file, onChange }: TranslatedFileFieldProps) {
  const id = useId();
  const t = useAdminT();
  const dispatch = useAppDispatch();
  const [deleteFile] = useDeleteAssessmentFileMutation();
  const [progress, setProgress] = useState<number | null>(null);
  const name = languageName(language);
  const types = ACCEPTED_FILE_TYPES.join(', ');

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    event.target.value = '';
    if (!chosen) return;
    if (!isAcceptedFile(chosen.name)) {
      notify.error(t('translations.file.typeRefused', { types }));
      return;
    }
    setProgress(0);
    try {
      onChange(await uploadAssessmentFile(chosen, dispatch, setProgress));
    } catch (err) {
      notify.error(
        err instanceof TransferError && err.serverMessage ? err.serverMessage : t('translations.file.failed'),
      );
    } finally {
      setProgress(null);
    }
  };

  const remove = () => {
    if (!file) return;
    // As the English file's Remove: a failed delete is ignored, and a file a saved version uses stays stored.
    deleteFile(file.filename).catch(() => undefined);
    onChange(null);
  };

  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {t('translations.field.label', { label: text.label, language: name })}
      </label>
      <p className="field__hint" id={`${id}-english`}>
        <AdminT
          id="translations.file.english"
          values={{ name: text.english }}
          components={{ 0: <span lang="en" /> }}
        />
      </p>
      {file ? (
        <QuestionFileChip
          file={file}
          label={t('translations.file.remove')}
          Icon={Trash2}
          aria-label={t('translations.file.removeLabel', {
            language: name,
            name: file.originalName,
            label: text.group,
          })}
          onClick={remove}
        />
      ) : (
        <>
          <input
            id={id}
            type="file"
            className="input"
            accept={ACCEPT_ATTRIBUTE}
            disabled={progress !== null}
            aria-describedby={`${id}-english ${id}-hint ${id}-missing`}
            onChange={(event) => void choose(event)}
          />
          <p className="field__hint" id={`${id}-hint`}>
            {t('translations.file.hint', { types })}
          </p>
          <p className="badge-stack" id={`${id}-missing`}>
            <Badge tone="warning">{t('translations.missing')}</Badge>
            <span className="muted">{t('translations.file.missing')}</span>
          </p>
        </>
      )}
      {progress !== null && (
        <div className="upload-progress">
          <progress
            max={100}
            value={progress}
            aria-label={t('translations.file.uploading', { language: name, label: text.group })}
          />
          <span aria-live="polite">{t('translations.file.progress', { percent: progress })}</span>
        </div>
      )}
    </div>
  );
}
