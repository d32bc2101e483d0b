import type { ReactNode } from 'react';
import { Logo } from '../../../components/ui';

/** The frame of the student pages: no admin navigation, the brand and the content. */
export function StudentShell({ children, wide = false }: { children: ReactNode; wide?: boolean }) {
  return (
    <div className="student">
      <header className="student__header">
        <Logo size="small" />
      </header>
      <main className={`student__main${wide ? ' student__main--wide' : ''}`}>{children}</main>
    </div>
  );
}
