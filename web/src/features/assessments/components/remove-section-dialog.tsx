import { useState } from 'react';
import { Button, Modal, Select } from '../../../components/ui';
import { useAdminT } from '../../../i18n/admin/admin-i18n';

interface Section {
  id: number;
  title: string;
}

interface RemoveSectionDialogProps {
  /** The section to remove; null keeps the dialog closed. */
  section: Section | null;
  /** The sections that stay, where its questions may move. */
  others: Section[];
  questionCount: number;
  onMove: (target: number) => void;
  onDelete: () => void;
  onCancel: () => void;
}

/**
 * Asks before a section goes. A section that still has questions asks what becomes of them:
 * they move to another section or are deleted with it, so no question is left without a section.
 */
export function RemoveSectionDialog({
  section,
  others,
  questionCount,
  onMove,
  onDelete,
  onCancel,
}: RemoveSectionDialogProps) {
  const t = useAdminT();
  // The parent keys this dialog by section, so the choice starts afresh for each one.
  const [target, setTarget] = useState(() => String(others[0]?.id ?? ''));
  if (!section) return null;
  const canMove = questionCount > 0 && others.length > 0;

  return (
    <Modal
      open
      title={t('assessments.removeSection.title', { id: section.id })}
      onClose={onCancel}
      size="sm"
      footer={
        <>
          <Button variant="secondary" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          {questionCount === 0 ? (
            <Button variant="danger" onClick={onDelete}>
              {t('assessments.removeSection.remove')}
            </Button>
          ) : (
            <>
              <Button variant="danger" onClick={onDelete}>
                {t('assessments.removeSection.deleteQuestions')}
              </Button>
              {canMove && (
                <Button onClick={() => onMove(Number(target))}>
                  {t('assessments.removeSection.moveQuestions')}
                </Button>
              )}
            </>
          )}
        </>
      }
    >
      <div className="confirm__message">
        {questionCount === 0 ? (
          <p>{t('assessments.removeSection.empty', { id: section.id })}</p>
        ) : (
          <>
            <p>
              {t('assessments.removeSection.hasQuestions', { id: section.id, count: questionCount })}{' '}
              {canMove
                ? t('assessments.removeSection.moveOrDelete')
                : t('assessments.removeSection.deletedWithIt')}
            </p>
            {canMove && (
              <Select
                label={t('assessments.removeSection.moveTo')}
                value={target}
                onChange={(e) => setTarget(e.target.value)}
                options={others.map((s) => ({
                  value: String(s.id),
                  label: t('assessments.sections.option', { id: s.id, title: s.title }),
                }))}
              />
            )}
          </>
        )}
      </div>
    </Modal>
  );
}
