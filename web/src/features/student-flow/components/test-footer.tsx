import { ChevronLeft, ChevronRight, Send } from 'lucide-react';
import { Button, ConfirmDialog } from '../../../components/ui';
import { formatList } from '../../../i18n/format';
import { useI18n, useT } from '../../../i18n/react';

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
  const t = useT();
  // The arrows point the way the page reads: mirrored right to left.
  return (
    <div className="test__footer">
      <div className="test__footer-side">
        {current > 0 && (
          <Button
            variant="secondary"
            icon={<ChevronLeft className="rtl-flip" size={18} aria-hidden="true" />}
            onClick={() => props.onOpen(current - 1)}
          >
            {t('footer.previous')}
          </Button>
        )}
      </div>
      <p className="test__position">
        {t('footer.position', { current: current + 1, total: props.sections })}
      </p>
      <div className="test__footer-side test__footer-side--end">
        {/* Once time is up the student can only submit, from wherever they are, e.g. to retry. */}
        {props.isLast || timeUp ? (
          <Button
            icon={<Send className="rtl-flip" size={18} aria-hidden="true" />}
            loading={props.submitting}
            disabled={!complete && !timeUp}
            aria-describedby={complete ? undefined : 'gate-hint'}
            onClick={props.onSubmit}
          >
            {t('footer.submit')}
          </Button>
        ) : (
          <Button
            className="btn--icon-end"
            disabled={!complete}
            aria-describedby={complete ? undefined : 'gate-hint'}
            onClick={() => props.onOpen(current + 1)}
          >
            {t('footer.next')}
            <ChevronRight className="rtl-flip" size={18} aria-hidden="true" />
          </Button>
        )}
      </div>
    </div>
  );
}

/** Puts the focus on a question's first control, which brings its card into view. */
export function focusQuestion(id: string): void {
  const card = document.querySelector<HTMLElement>(`[data-question-id="${CSS.escape(id)}"]`);
  card?.querySelector<HTMLElement>('input, button, textarea, select')?.focus();
}

/** Why Next or Submit waits: the numbers of the required questions still unanswered, and a way to the first. */
export function SectionGate({ missing }: { missing: Array<{ id: string; number: number }> }) {
  const t = useT();
  const i18n = useI18n();
  const focusFirstMissing = () => {
    const first = missing[0];
    if (first) focusQuestion(first.id);
  };
  return (
    <div id="gate-hint" className="test__gate">
      <p className="muted">
        {t('gate.hint')}{' '}
        {t('gate.missing', {
          count: missing.length,
          numbers: formatList(
            i18n,
            missing.map((m) => String(m.number)),
          ),
        })}
      </p>
      <Button variant="secondary" size="sm" onClick={focusFirstMissing}>
        {t('gate.goTo', { number: missing[0]?.number })}
      </Button>
    </div>
  );
}

/** A question left unanswered: its id, its section and its number in the section, as its card shows them. */
export interface SkippedQuestion {
  id: string;
  section: number;
  number: number;
}

/**
 * The summary before a submit that leaves questions unanswered: how many, which ones (section and number), each a
 * way back to answer it (`onGoTo`).
 */
export function SubmitSummary(props: {
  open: boolean;
  answered: number;
  total: number;
  skippedOptional: number;
  unanswered: SkippedQuestion[];
  onGoTo(question: SkippedQuestion): void;
  onConfirm(): void;
  onCancel(): void;
}) {
  const { answered, total, skippedOptional: skipped, unanswered } = props;
  const t = useT();
  return (
    <ConfirmDialog
      open={props.open}
      title={t('summary.title')}
      message={
        <>
          <p>
            {skipped > 0
              ? t('summary.answeredSkipped', { answered, total, skipped })
              : t('summary.answered', { answered, total })}
          </p>
          {unanswered.length > 0 && (
            <>
              <p id="summary-skipped">{t('summary.skippedList')}</p>
              <ul className="summary__skipped" aria-labelledby="summary-skipped">
                {unanswered.map((question) => (
                  <li key={question.id}>
                    <Button variant="secondary" size="sm" onClick={() => props.onGoTo(question)}>
                      {t('summary.skippedQuestion', { section: question.section, number: question.number })}
                    </Button>
                  </li>
                ))}
              </ul>
            </>
          )}
          <p className="muted">{t('summary.note')}</p>
        </>
      }
      confirmLabel={t('summary.confirm')}
      cancelLabel={t('summary.cancel')}
      closeLabel={t('dialog.close')}
      onConfirm={props.onConfirm}
      onCancel={props.onCancel}
    />
  );
}
