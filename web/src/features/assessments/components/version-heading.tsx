import type { RefObject } from 'react';
import { Pencil } from 'lucide-react';
import { Badge, Button } from '../../../components/ui';

interface VersionHeadingProps {
  /** Focused when the mode changes, so a screen reader follows along. */
  headingRef: RefObject<HTMLHeadingElement | null>;
  title: string;
  currentVersion: number;
  /** An earlier version shown read-only, or null for the current one. */
  oldVersion: number | null;
  onEdit: () => void;
  onBack: () => void;
  onActivate: (version: number) => void;
}

/** What is shown (the current version, or an earlier one read-only) and what can be done with it. */
export function VersionHeading({
  headingRef,
  title,
  currentVersion,
  oldVersion,
  onEdit,
  onBack,
  onActivate,
}: VersionHeadingProps) {
  return (
    <div className="page-heading page-heading--row">
      <div>
        <h2 className="page-heading__title" ref={headingRef} tabIndex={-1}>
          {oldVersion !== null ? `Version ${oldVersion} (read-only)` : title}
        </h2>
        <p className="muted">
          {oldVersion !== null ? (
            'Not the current version: shown as it was saved, read-only.'
          ) : (
            <>
              Version {currentVersion} <Badge tone="success">Current</Badge>
            </>
          )}
        </p>
      </div>
      <div className="page-heading__actions">
        {oldVersion !== null ? (
          <>
            <Button variant="secondary" onClick={onBack}>
              Back to Current
            </Button>
            <Button onClick={() => onActivate(oldVersion)}>Make Current</Button>
          </>
        ) : (
          <Button icon={<Pencil size={18} aria-hidden="true" />} onClick={onEdit}>
            Edit Assessment
          </Button>
        )}
      </div>
    </div>
  );
}
