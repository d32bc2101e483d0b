import { ChevronLeft, ChevronRight, Send } from 'lucide-react';
import { Button, ConfirmDialog } from '../../../components/ui';

/** '2, 4 and 7' */
const listOf = (items: string[]) =>
  items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

/** Previous, the position, and Next or Submit: Next and Submit wait for the section's required answers. */
export function TestFooter(props: {
  current: number;
  sections: number;
  /** Every required question of the section is answered. */
  complete: boolean;
  isLast: boolean;
  timeUp: boolean;
  submitting: boolean;
  onOpen(index: number): void;
  onSubmit(): void;
}) {
  const { current, complete, timeUp } = props;
  return (
    <div className="test__footer">
      <div className="test__footer-side">
        {current > 0 && (
          <Button
            variant="secondary"
            icon={<ChevronLeft size={18} aria-hidden="true" />}
            onClick={() => props.onOpen(current - 1)}
          >
            Previous Section
          </Button>
        )}
      </div>
      <p className="test__position">
        Section {current + 1} of {props.sections}
      </p>
      <div className="test__footer-side test__footer-side--end">
        {/* Once time is up the student can only submit, from wherever they are, e.g. to retry. */}
        {props.isLast || timeUp ? (
          <Button
            icon={<Send size={18} aria-hidden="true" />}
            loading={props.submitting}
            disabled={!complete && !timeUp}
            aria-describedby={complete ? undefined : 'gate-hint'}
            onClick={props.onSubmit}
          >
            Submit Assessment
          </Button>
        ) : (
          <Button
            className="btn--icon-end"
            disabled={!complete}
            aria-describedby={complete ? undefined : 'gate-hint'}
            onClick={() => props.onOpen(current + 1)}
          >
            Next Section
            <ChevronRight size={18} aria-hidden="true" />
          </Button>
        )}
      </div>
    </div>
  );
}

/** Why Next or Submit waits: the numbers of the required questions still unanswered, and a way to the first. */
export function SectionGate({ missing }: { missing: Array<{ id: string; number: number }> }) {
  const focusFirstMissing = () => {
    const first = missing[0];
    if (!first) return;
    const card = document.querySelector<HTMLElement>(`[data-question-id="${CSS.escape(first.id)}"]`);
    card?.querySelector<HTMLElement>('input, button, textarea, select')?.focus();
  };
  return (
    <div id="gate-hint" className="test__gate">
      <p className="muted">
        Answer every required question in this section to continue.{' '}
        {missing.length === 1
          ? `Question ${missing[0]!.number} still needs an answer.`
          : `Questions ${listOf(missing.map((m) => String(m.number)))} still need an answer.`}
      </p>
      <Button variant="secondary" size="sm" onClick={focusFirstMissing}>
        Go to question {missing[0]?.number}
      </Button>
    </div>
  );
}

/** The summary before a submit that leaves questions unanswered. */
export function SubmitSummary(props: {
  open: boolean;
  answered: number;
  total: number;
  skippedOptional: number;
  onConfirm(): void;
  onCancel(): void;
}) {
  const { skippedOptional } = props;
  return (
    <ConfirmDialog
      open={props.open}
      title="Submit your assessment?"
      message={
        <>
          <p>
            {props.answered} of {props.total} answered
            {skippedOptional > 0 &&
              `; ${skippedOptional} optional ${skippedOptional === 1 ? 'question' : 'questions'} skipped`}
            .
          </p>
          <p className="muted">
            Skipped optional questions do not count against your score. You cannot change your answers after
            you submit.
          </p>
        </>
      }
      confirmLabel="Submit now"
      cancelLabel="Keep working"
      onConfirm={props.onConfirm}
      onCancel={props.onCancel}
    />
  );
}
