import { catalogueProblems } from '@readiness/kit/i18n';
import { CERTIFICATE_CATALOGUES } from '../src/domain/templates/messages';

test('when the certificate catalogues are checked against English, then every language has every message with the same placeholders', () => {
  expect(catalogueProblems(CERTIFICATE_CATALOGUES)).toEqual([]);
});
