import type { ReactNode } from 'react';
import { Logo } from '../../../components/ui';

interface StudentShellProps {
  children: ReactNode;
  wide?: boolean;
  /** What the header carries at its end, after the brand: the language switch. */
  aside?: ReactNode;
}

/** The frame of the student pages: no admin navigation, the brand and the content. */
export function StudentShell({ children, wide = false, aside }: StudentShellProps) {
  return (
    <div className="student">
      <header className="student__header">
        <Logo size="small" />
        {aside}
      </header>
      <main className={`student__main${wide ? ' student__main--wide' : ''}`}>{children}</main>
    </div>
  );
}
