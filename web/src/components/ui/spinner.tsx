import { useUiWords } from './words';

interface SpinnerProps {
  size?: 'sm' | 'md' | 'lg';
  /** Its name for screen readers, when not the app's own 'Loading' (UiWordsProvider). */
  label?: string;
  /** Inside a button the button itself announces the busy state. */
  decorative?: boolean;
}

export function Spinner({ size = 'md', label, decorative = false }: SpinnerProps) {
  const words = useUiWords();
  if (decorative) return <span className={`spinner spinner--${size}`} aria-hidden="true" />;
  return (
    <span role="status" aria-label={label ?? words.loading} className="spinner-wrap">
      <span className={`spinner spinner--${size}`} aria-hidden="true" />
    </span>
  );
}

/** Fills the viewport and centres a spinner: used while the session check runs. */
export function FullPageSpinner({ label }: { label?: string }) {
  return (
    <div className="full-page-center">
      <Spinner size="lg" label={label} />
    </div>
  );
}
