import { useState, type ChangeEvent } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { Trash2 } from 'lucide-react';
import { FormField } from '../../../components/ui';
import { useAppDispatch } from '../../../lib/hooks';
import { notify } from '../../../lib/toast';
import { adminT, useAdminT } from '../../../i18n/admin/admin-i18n';
import {
  ACCEPT_ATTRIBUTE,
  ACCEPTED_FILE_TYPES,
  isAcceptedFile,
  type AssessmentForm,
} from '../api/assessment-schema';
import { useDeleteAssessmentFileMutation } from '../api/assessments-api';
import { uploadAssessmentFile, TransferError } from '../api/file-transfer';
import { Checkbox, GroupError } from './fields';
import { QuestionFileChip } from './question-file-chip';

/**
 * A question's downloadable file: the box turns it on, a chosen file is uploaded at once with its
 * progress shown, Remove deletes it, and unchecking the box clears it (SPEC §5).
 */
export function DownloadableFileField({ index, label }: { index: number; label: string }) {
  const t = useAdminT();
  const { register, setValue, control, formState } = useFormContext<AssessmentForm>();
  const dispatch = useAppDispatch();
  const [deleteFile] = useDeleteAssessmentFileMutation();
  const [progress, setProgress] = useState<number | null>(null);
  const enabled = useWatch({ control, name: `questions.${index}.hasDownloadableFile` });
  const file = useWatch({ control, name: `questions.${index}.downloadableFile` });
  const error = formState.errors.questions?.[index]?.downloadableFile?.message;
  const path = `questions.${index}.downloadableFile` as const;
  const boxPath = `questions.${index}.hasDownloadableFile` as const;

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    event.target.value = '';
    if (!chosen) return;
    if (!isAcceptedFile(chosen.name)) {
      notify.error(adminT('assessments.file.notAccepted', { types: ACCEPTED_FILE_TYPES.join(', ') }));
      return;
    }
    setProgress(0);
    try {
      const uploaded = await uploadAssessmentFile(chosen, dispatch, setProgress);
      setValue(path, uploaded, { shouldDirty: true, shouldValidate: formState.isSubmitted });
    } catch (err) {
      notify.error(
        err instanceof TransferError && err.serverMessage
          ? err.serverMessage
          : adminT('assessments.file.uploadFailed'),
      );
    } finally {
      setProgress(null);
    }
  };

  const remove = () => {
    if (!file) return;
    // SPEC §7: a failed delete is ignored; the draft no longer refers to the file either way.
    deleteFile(file.filename).catch(() => undefined);
    setValue(path, null, { shouldDirty: true });
  };

  return (
    <div className="file-field">
      <Checkbox
        label={t('assessments.file.attach')}
        {...register(boxPath, {
          onChange: (event: ChangeEvent<HTMLInputElement>) => {
            if (!event.target.checked) setValue(path, null, { shouldDirty: true });
          },
        })}
      />
      {enabled && (
        <div className="file-field__body">
          {file ? (
            <QuestionFileChip
              file={file}
              label={t('assessments.file.remove')}
              Icon={Trash2}
              aria-label={t('assessments.file.removeLabel', { name: file.originalName, question: label })}
              onClick={remove}
            />
          ) : (
            <FormField
              label={t('assessments.file.field', { question: label })}
              hint={t('assessments.file.accepted', { types: ACCEPTED_FILE_TYPES.join(', ') })}
            >
              {(control) => (
                <input
                  {...control}
                  type="file"
                  className="input"
                  accept={ACCEPT_ATTRIBUTE}
                  disabled={progress !== null}
                  onChange={choose}
                />
              )}
            </FormField>
          )}
          {progress !== null && (
            <div className="upload-progress">
              <progress
                max={100}
                value={progress}
                aria-label={t('assessments.file.uploading', { question: label })}
              />
              <span aria-live="polite">{progress}%</span>
            </div>
          )}
          <GroupError message={error} />
        </div>
      )}
    </div>
  );
}
