/* The admin app's words for dashboard: one file of the admin catalogue (see ./index.ts); its ids start with its name. */
export default {
  'dashboard.loadFailed': 'Failed to load dashboard data',
  'dashboard.stats.totalStudents': 'Total Students',
  'dashboard.stats.completedAssessments': 'Completed Assessments',
  'dashboard.stats.passRate': 'Pass Rate',
  'dashboard.stats.pendingInvites': 'Pending Invites',
  'dashboard.recent.title': 'Recent Assessment Results',
  'dashboard.recent.loading': 'Loading recent results',
  'dashboard.recent.empty': 'No results yet',
  'dashboard.quickActions.title': 'Quick Actions',
  'dashboard.quickActions.inviteStudents': 'Invite Students',
  'dashboard.quickActions.manageAssessment': 'Manage Assessment',
  'dashboard.quickActions.viewAllResults': 'View All Results',
} satisfies Record<`dashboard.${string}`, string>;
