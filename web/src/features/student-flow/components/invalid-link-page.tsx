import { Link2Off } from 'lucide-react';
import { Spinner } from '../../../components/ui';
import { LanguageSelect } from '../../../i18n/language-select';
import { useT } from '../../../i18n/react';
import { useVisitorLanguage } from '../../../i18n/use-visitor-language';
import { StudentShell } from './student-shell';

/**
 * An invitation link that does not work (unknown, expired, revoked): a page of its own at the
 * link's address, saying so in the SPEC's words (§8) and whom to ask, instead of sending a student to the admin
 * portal's `/`. No invitation says whose page it is, so it is in the visitor's language (their choice on a public
 * page before, else the browser's), with the switch.
 */
export function InvalidLinkPage() {
  const t = useT();
  const language = useVisitorLanguage();
  return (
    <StudentShell aside={language.ready ? <LanguageSelect onChange={language.choose} /> : undefined}>
      {language.ready ? (
        <section className="card card__body verify" aria-labelledby="invalid-link-title">
          <div className="verify__icon verify__icon--unknown" aria-hidden="true">
            <Link2Off size={40} />
          </div>
          <h1 id="invalid-link-title" className="student__title">
            {t('load.invalidLink')}
          </h1>
          <p>{t('load.invalidLinkText')}</p>
          <p>
            <strong>{t('load.invalidLinkAsk')}</strong>
          </p>
        </section>
      ) : (
        <div className="center-block">
          <Spinner size="lg" decorative />
        </div>
      )}
    </StudentShell>
  );
}
