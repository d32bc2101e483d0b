/* The admin app's words for data retention (erasing inactive students): one file of the admin catalogue (see ./index.ts); its ids start with its name. */
export default {
  'retention.title': 'Data retention',
  'retention.intro':
    'When data retention is on, Readiness erases every student whose last activity is older than the months you set, everywhere, as Delete does: their answers, files, results and certificates. It checks every hour (by default). Off until a super admin switches it on.',
  'retention.lastActivity':
    'A student’s last activity is the newest of: invited or invitation resent, reminded, opened from the LMS, attempt started, answers saved, submitted. A student with an attempt in progress is never erased.',
  'retention.loading': 'Loading the data retention setting',
  'retention.loadFailed': 'Failed to load the data retention setting',
  'retention.status.label': 'Now',
  'retention.status.on': 'On',
  'retention.status.off': 'Off',
  'retention.status.onText':
    'Students inactive for more than {months, plural, one {# month} other {# months}} are erased.',
  'retention.status.offText': 'Nobody is erased.',
  'retention.status.changed': 'Last changed {at}.',
  'retention.months': 'Erase students inactive for more than (months)',
  'retention.monthsHint': 'From 1 to 120 months.',
  'retention.monthsInvalid': 'Months must be a whole number from 1 to 120',
  'retention.dryRun': 'Dry run',
  'retention.dryRun.none':
    'With {months, plural, one {# month} other {# months}}, nobody would be erased now.',
  'retention.dryRun.some':
    'With {months, plural, one {# month} other {# months}}, {count, plural, one {# student} other {# students}} would be erased now. The oldest last activity: {oldest}.',
  'retention.dryRun.failed': 'The dry run failed',
  'retention.switchOn': 'Switch on',
  'retention.save': 'Save months',
  'retention.switchOff': 'Switch off',
  'retention.confirm.title': 'Switch data retention on?',
  'retention.confirm.shortenTitle': 'Erase after fewer months?',
  'retention.confirm.some':
    '{count, plural, one {# student} other {# students}} will be erased at the next check, and from then on every student inactive for more than {months, plural, one {# month} other {# months}}. This cannot be undone.',
  'retention.confirm.none':
    'Nobody is erased now; from now on every student inactive for more than {months, plural, one {# month} other {# months}} is.',
  'retention.confirm.submit': 'Erase {count, plural, one {# student} other {# students}}',
  'retention.confirm.submitNone': 'Switch on',
  'retention.saved.on': 'Data retention is on: {months, plural, one {# month} other {# months}}',
  'retention.saved.off': 'Data retention is off',
  'retention.saveFailed': 'Failed to save the data retention setting',
} satisfies Record<`retention.${string}`, string>;
