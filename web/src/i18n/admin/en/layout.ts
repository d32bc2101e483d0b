/* The admin app's words for layout: one file of the admin catalogue (see ./index.ts); its ids start with its name. */
export default {
  'layout.nav.label': 'Main',
  'layout.nav.dashboard': 'Dashboard',
  'layout.nav.students': 'Students',
  'layout.nav.live': 'Live',
  'layout.nav.assessments': 'Assessments',
  'layout.nav.results': 'Results',
  'layout.nav.admins': 'Admins',
  'layout.account.changePassword': 'Change password',
  'layout.account.security': 'Security',
  'layout.defaultTitle': 'Admin Portal',
  'layout.documentTitle': '{title} · Readiness Admin',
  'layout.skipToContent': 'Skip to content',
  'layout.sidebar.label': 'Sidebar',
  'layout.sidebar.open': 'Open menu',
  'layout.sidebar.close': 'Close menu',
  'layout.logout': 'Logout',
} satisfies Record<`layout.${string}`, string>;
