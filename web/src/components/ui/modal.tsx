import { useEffect, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { X } from 'lucide-react';
import { useUiWords } from './words';

interface ModalProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  /** A busy dialog (saving) cannot be dismissed half-way. */
  dismissible?: boolean;
  size?: 'sm' | 'md';
  /** The close button's name for screen readers, when not the app's own 'Close' (UiWordsProvider). */
  closeLabel?: string;
}

const focusable =
  // eslint-disable-next-line lingui/no-unlocalized-strings -- a CSS selector
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function Modal({
  open,
  title,
  onClose,
  children,
  footer,
  dismissible = true,
  size = 'md',
  closeLabel,
}: ModalProps) {
  const words = useUiWords();
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);
  const dismissibleRef = useRef(dismissible);
  closeRef.current = onClose;
  dismissibleRef.current = dismissible;

  useEffect(() => {
    if (!open) return;
    const previouslyFocused = document.activeElement as HTMLElement | null;
    const first = panel.current?.querySelector<HTMLElement>(
      'input:not([disabled]), select:not([disabled]), textarea:not([disabled])',
    );
    (first ?? panel.current)?.focus();

    // Only the dialog on top keeps the focus (a confirmation can open over another dialog).
    const onTop = () => {
      const dialogs = document.querySelectorAll('[role="dialog"][aria-modal="true"]');
      return dialogs[dialogs.length - 1] === panel.current;
    };
    const items = () => Array.from(panel.current?.querySelectorAll<HTMLElement>(focusable) ?? []);

    // Keep keyboard focus inside the dialog and let Escape close it. Tab is handled wherever the focus is: a
    // control disabled while saving leaves the focus on the page, and Tab from there must come back in.
    const onKey = (event: KeyboardEvent) => {
      if (!onTop()) return;
      if (event.key === 'Escape' && dismissibleRef.current) {
        event.stopPropagation();
        closeRef.current();
        return;
      }
      if (event.key !== 'Tab' || !panel.current) return;
      const list = items();
      const active = document.activeElement;
      const at = list.findIndex((item) => item === active);
      const inside = panel.current.contains(active);
      if (list.length === 0) {
        event.preventDefault();
        panel.current.focus();
      } else if (!inside || at === -1) {
        event.preventDefault();
        (event.shiftKey ? list[list.length - 1]! : list[0]!).focus();
      } else if (event.shiftKey && at === 0) {
        event.preventDefault();
        list[list.length - 1]!.focus();
      } else if (!event.shiftKey && at === list.length - 1) {
        event.preventDefault();
        list[0]!.focus();
      }
    };
    // Focus that lands behind the dialog (a click-less focus(), an element of the page) is taken back; toasts
    // keep theirs, so their close buttons stay reachable.
    const onFocusIn = (event: FocusEvent) => {
      const target = event.target as Element | null;
      if (!onTop() || !panel.current || !target || panel.current.contains(target)) return;
      // eslint-disable-next-line lingui/no-unlocalized-strings -- a CSS selector
      if (target.closest('[role="dialog"], .Toastify')) return;
      panel.current.focus();
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('focusin', onFocusIn);
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('focusin', onFocusIn);
      document.body.style.overflow = overflow;
      previouslyFocused?.focus?.();
    };
  }, [open]);

  if (!open) return null;
  return createPortal(
    <div
      className="modal-backdrop"
      onMouseDown={(e) => e.target === e.currentTarget && dismissible && onClose()}
    >
      <div
        ref={panel}
        className={`modal modal--${size}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
      >
        {/* Plain divs: a <header>/<footer> portalled to <body> would count as a second page banner
            and content-info landmark for screen readers. */}
        <div className="modal__header">
          <h2 id={titleId} className="modal__title">
            {title}
          </h2>
          <button
            type="button"
            className="modal__close"
            onClick={onClose}
            aria-label={closeLabel ?? words.close}
            disabled={!dismissible}
          >
            <X size={18} aria-hidden="true" />
          </button>
        </div>
        <div className="modal__body">{children}</div>
        {footer && <div className="modal__footer">{footer}</div>}
      </div>
    </div>,
    document.body,
  );
}
