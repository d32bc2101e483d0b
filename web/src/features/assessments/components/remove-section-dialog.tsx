import { useState } from 'react';
import { Button, Modal, Select } from '../../../components/ui';

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
  // The parent keys this dialog by section, so the choice starts afresh for each one.
  const [target, setTarget] = useState(() => String(others[0]?.id ?? ''));
  if (!section) return null;
  const name = `Section ${section.id}`;
  const count = `${questionCount} question${questionCount === 1 ? '' : 's'}`;
  const canMove = questionCount > 0 && others.length > 0;

  return (
    <Modal
      open
      title={`Remove ${name}?`}
      onClose={onCancel}
      size="sm"
      footer={
        <>
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          {questionCount === 0 ? (
            <Button variant="danger" onClick={onDelete}>
              Remove Section
            </Button>
          ) : (
            <>
              <Button variant="danger" onClick={onDelete}>
                Delete Questions
              </Button>
              {canMove && <Button onClick={() => onMove(Number(target))}>Move Questions</Button>}
            </>
          )}
        </>
      }
    >
      <div className="confirm__message">
        {questionCount === 0 ? (
          <p>{name} has no questions. It is removed when you save.</p>
        ) : (
          <>
            <p>
              {name} has {count}.{' '}
              {canMove ? 'Move them to another section or delete them.' : 'They are deleted with it.'}
            </p>
            {canMove && (
              <Select
                label="Move questions to"
                value={target}
                onChange={(e) => setTarget(e.target.value)}
                options={others.map((s) => ({ value: String(s.id), label: `Section ${s.id}: ${s.title}` }))}
              />
            )}
          </>
        )}
      </div>
    </Modal>
  );
}
