/*
 * What the admin app says, in English, by message id: one file per area of the app, each an
 * object of ICU MessageFormat messages whose ids start with the file's name (`students.invite.title`). English is
 * the only language for now; a translation is a folder next to this one with the same files and ids, not a change
 * to the code. `common` holds the words several areas share (buttons, table states, the dialogs' close label).
 *
 * The build compiles each file (vite.config.mts, `compiledCatalogues`), so the app ships no MessageFormat parser.
 * Messages are written as the student catalogue's are (src/i18n/locales/en.ts): `{name}` a value, `{n, plural,
 * one {…} other {…}}` a plural, `<0>…</0>` words wrapped in an element the screen gives. The SPEC's words stay
 * exactly as they are.
 */
import admins from './admins';
import assessments from './assessments';
import audit from './audit';
import auth from './auth';
import common from './common';
import dashboard from './dashboard';
import layout from './layout';
import live from './live';
import lti from './lti';
import misc from './misc';
import results from './results';
import retention from './retention';
import students from './students';
import translations from './translations';
import webhooks from './webhooks';

const en = {
  ...common,
  ...admins,
  ...assessments,
  ...audit,
  ...auth,
  ...dashboard,
  ...layout,
  ...live,
  ...lti,
  ...misc,
  ...results,
  ...retention,
  ...students,
  ...translations,
  ...webhooks,
};

export default en;

/** An admin message's id. */
export type AdminMessageId = keyof typeof en;
