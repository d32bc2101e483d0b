import type { ReactNode } from 'react';
import { ShieldCheck } from 'lucide-react';
import { Logo } from '../../../components/ui';
import { useAdminT } from '../../../i18n/admin/admin-i18n';

/** The centred card that frames the sign-in and password screens, with the internal-use footer. */
export function AuthShell({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle: string;
  children: ReactNode;
}) {
  const t = useAdminT();
  return (
    <div className="auth">
      <main className="auth__main">
        <div className="auth__card">
          <div className="auth__brand">
            <Logo />
          </div>
          <h1 className="auth__title">{title}</h1>
          <p className="auth__subtitle">{subtitle}</p>
          {children}
        </div>
      </main>
      <footer className="auth__footer">
        <ShieldCheck size={16} aria-hidden="true" />
        <span>{t('auth.shell.footer')}</span>
      </footer>
    </div>
  );
}
