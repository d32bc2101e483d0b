import { useEffect, useState } from 'react';
import { useSelector } from 'react-redux';
import { Link, NavLink, Outlet, matchPath, useLocation, useMatches, useNavigate } from 'react-router-dom';
import {
  Activity,
  BarChart3,
  ClipboardList,
  KeyRound,
  LayoutDashboard,
  LockKeyhole,
  LogOut,
  Menu,
  ShieldCheck,
  UserCircle2,
  Users,
  X,
  type LucideIcon,
} from 'lucide-react';
import { Logo } from '../../../components/ui';
import { useAppDispatch } from '../../../lib/hooks';
import { logout, selectAdmin, selectIsSuperAdmin } from '../../auth/api/session';
import { roleLabel as nameOfRole } from '../../auth/api/types';
import { RELATED_SCREENS } from '../../admins/api/related-screens';
import { useAdminT } from '../../../i18n/admin/admin-i18n';
import type { AdminMessageId } from '../../../i18n/admin/en';

interface NavItem {
  to: string;
  labelId: AdminMessageId;
  icon: LucideIcon;
  superAdminOnly?: boolean;
  /** Screens reached from this one (its page's links): the entry stays highlighted there, as their section. */
  section?: string[];
}

const NAV_ITEMS: NavItem[] = [
  { to: '/admin/dashboard', labelId: 'layout.nav.dashboard', icon: LayoutDashboard },
  { to: '/admin/students', labelId: 'layout.nav.students', icon: Users },
  { to: '/admin/live', labelId: 'layout.nav.live', icon: Activity },
  { to: '/admin/assessments', labelId: 'layout.nav.assessments', icon: ClipboardList },
  { to: '/admin/results', labelId: 'layout.nav.results', icon: BarChart3 },
  {
    to: '/admin/admins',
    labelId: 'layout.nav.admins',
    icon: ShieldCheck,
    superAdminOnly: true,
    section: RELATED_SCREENS.map((screen) => screen.to),
  },
];

/** The path itself or a page below it, as the router matches a route that does not end there. */
const under = (pathname: string, path: string) => matchPath({ path, end: false }, pathname) !== null;

/**
 * Where the admin is, for a sidebar entry: its own page (or one below it), `page`; a screen of its section (the Audit
 * log reached from Admins), `true`, so assistive technology hears the current section too; else nothing.
 */
function currentOf(pathname: string, item: NavItem): 'page' | 'true' | undefined {
  if (under(pathname, item.to)) return 'page';
  return item.section?.some((path) => under(pathname, path)) ? 'true' : undefined;
}

/** The admin's own account, under their name. */
const ACCOUNT_LINKS: { to: string; labelId: AdminMessageId; icon: LucideIcon }[] = [
  { to: '/admin/change-password', labelId: 'layout.account.changePassword', icon: KeyRound },
  { to: '/admin/security', labelId: 'layout.account.security', icon: LockKeyhole },
];

/** Routes name their page in `handle.titleId`, an id of the admin catalogue; the deepest one wins. */
export interface RouteHandle {
  titleId?: AdminMessageId;
}

function usePageTitle(): string {
  const t = useAdminT();
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const titleId = (matches[i]?.handle as RouteHandle | undefined)?.titleId;
    if (titleId) return t(titleId);
  }
  return t('layout.defaultTitle');
}

export function AdminLayout() {
  const admin = useSelector(selectAdmin);
  const isSuperAdmin = useSelector(selectIsSuperAdmin);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  const title = usePageTitle();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const t = useAdminT();

  useEffect(() => {
    document.title = t('layout.documentTitle', { title });
  }, [title, t]);

  // Following a link closes the drawer on small screens.
  useEffect(() => setDrawerOpen(false), [location.pathname]);

  useEffect(() => {
    if (!drawerOpen) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setDrawerOpen(false);
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [drawerOpen]);

  const onLogout = async () => {
    await dispatch(logout());
    await navigate('/admin/login', { replace: true });
  };

  const roleLabel = admin ? nameOfRole(admin.role, t) : '';

  return (
    <div className={`shell${drawerOpen ? ' shell--drawer-open' : ''}`}>
      <a href="#main" className="skip-link">
        {t('layout.skipToContent')}
      </a>
      <aside className="sidebar" id="admin-sidebar" aria-label={t('layout.sidebar.label')}>
        <div className="sidebar__top">
          <Logo variant="dark" size="medium" />
          <button
            type="button"
            className="sidebar__close"
            aria-label={t('layout.sidebar.close')}
            onClick={() => setDrawerOpen(false)}
          >
            <X size={20} aria-hidden="true" />
          </button>
        </div>
        <nav className="sidebar__nav" aria-label={t('layout.nav.label')}>
          <ul>
            {NAV_ITEMS.filter((item) => !item.superAdminOnly || isSuperAdmin).map((item) => {
              const { to, labelId, icon: Icon } = item;
              const current = currentOf(location.pathname, item);
              return (
                <li key={to}>
                  <Link
                    to={to}
                    className={`nav-link${current ? ' nav-link--active' : ''}`}
                    aria-current={current}
                  >
                    <Icon size={20} aria-hidden="true" />
                    <span>{t(labelId)}</span>
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
        <div className="sidebar__footer">
          <div className="sidebar__user">
            <UserCircle2 size={36} aria-hidden="true" />
            <div className="sidebar__user-text">
              <p className="sidebar__user-name">
                <bdi>{admin?.name}</bdi>
              </p>
              <p className="sidebar__user-role">{roleLabel}</p>
            </div>
          </div>
          {ACCOUNT_LINKS.map(({ to, labelId, icon: Icon }) => (
            <NavLink key={to} to={to} className="sidebar__secondary">
              <Icon size={16} aria-hidden="true" />
              <span>{t(labelId)}</span>
            </NavLink>
          ))}
          <button type="button" className="sidebar__logout" onClick={onLogout}>
            <LogOut size={18} aria-hidden="true" />
            <span>{t('layout.logout')}</span>
          </button>
        </div>
      </aside>
      {drawerOpen && (
        <div
          className="shell__overlay"
          data-testid="drawer-overlay"
          aria-hidden="true"
          onClick={() => setDrawerOpen(false)}
        />
      )}
      <div className="shell__content">
        <header className="topbar">
          <button
            type="button"
            className="topbar__menu"
            aria-label={t('layout.sidebar.open')}
            aria-controls="admin-sidebar"
            aria-expanded={drawerOpen}
            onClick={() => setDrawerOpen(true)}
          >
            <Menu size={22} aria-hidden="true" />
          </button>
          <h1 className="topbar__title">{title}</h1>
          <div className="topbar__user">
            <span className="topbar__user-name" title={admin?.name}>
              <bdi>{admin?.name}</bdi>
            </span>
            <span className="topbar__avatar" aria-hidden="true">
              {admin?.name?.charAt(0).toUpperCase()}
            </span>
          </div>
        </header>
        <main className="page" id="main" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
    </div>
  );
}
