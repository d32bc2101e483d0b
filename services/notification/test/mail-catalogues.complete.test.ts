import { catalogueProblems } from '@readiness/kit/i18n';
import { MAIL_CATALOGUES } from '../src/domain/messages';

test('when the mail catalogues are checked against English, then every language has every message with the same placeholders', () => {
  expect(catalogueProblems(MAIL_CATALOGUES)).toEqual([]);
});
