/*
 * The admin app's words for common: one file of the admin catalogue (see ./index.ts); its ids start with its name.
 * The words the shared components show (which take them as props, the student pages giving their own) and the
 * words several areas share.
 */
export default {
  'common.cancel': 'Cancel',
  'common.loading': 'Loading',
  'common.exportCsv': 'Export CSV',
  'common.pager.previous': 'Previous',
  'common.pager.next': 'Next',
  'common.pager.page': 'Page {current} of {total}',
  'common.close': 'Close',
  'common.actions': 'Actions',
  'common.passed': 'Passed',
  'common.failed': 'Failed',
  'common.showPassword': 'Show password',
  'common.hidePassword': 'Hide password',
  'common.field.email': 'Email',
  'common.field.password': 'Password',
} satisfies Record<`common.${string}`, string>;
