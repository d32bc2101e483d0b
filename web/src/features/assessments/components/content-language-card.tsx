import { useFormContext, useWatch } from 'react-hook-form';
import { Button, Card } from '../../../components/ui';
import { useAdminT, type AdminTranslate } from '../../../i18n/admin/admin-i18n';
import { formTexts, type AssessmentForm } from '../api/assessment-schema';
import { missingTexts, outdatedTexts, type LoadedContent } from '../api/translations';
import {
  CONTENT_LANGUAGES,
  TRANSLATION_LANGUAGES,
  languageName,
  type ContentLanguage,
  type TranslationLanguage,
} from '../api/types';

/**
 * "Arabic: 3 of 24 texts missing", "Arabic: 2 of 24 texts to review (English changed)", both, or "Arabic: all 24
 * texts translated" only when none is missing or outdated (a question's file counts as a text).
 */
const languageSummary = (
  t: AdminTranslate,
  language: TranslationLanguage,
  counts: { missing: number; outdated: number; total: number },
) => {
  const values = { language: languageName(language), ...counts };
  if (counts.outdated === 0) {
    return counts.missing === 0
      ? t('translations.languages.allTranslated', values)
      : t('translations.languages.missing', values);
  }
  return counts.missing === 0
    ? t('translations.languages.outdated', values)
    : t('translations.languages.missingAndOutdated', values);
};

interface ContentLanguageCardProps {
  language: ContentLanguage;
  onChange: (language: ContentLanguage) => void;
  /** The version the edit started from: which translations are outdated is told against it. */
  loaded: LoadedContent;
}

/**
 * Which language the editor shows the content in (English: the version's own text; another: its translation, text
 * by text), and how many texts each language still misses or has to review because their English changed. A save
 * with missing texts is allowed: students see those in English.
 */
export function ContentLanguageCard({ language, onChange, loaded }: ContentLanguageCardProps) {
  const t = useAdminT();
  const { control } = useFormContext<AssessmentForm>();
  const values = useWatch({ control }) as AssessmentForm;
  const texts = formTexts(values);
  return (
    <Card title={t('translations.languages.title')}>
      <div className="form">
        <div className="toolbar" role="group" aria-label={t('translations.languages.label')}>
          {CONTENT_LANGUAGES.map((l) => (
            <Button
              key={l.value}
              size="sm"
              variant={l.value === language ? 'primary' : 'secondary'}
              aria-pressed={l.value === language}
              lang={l.value}
              onClick={() => onChange(l.value)}
            >
              {l.label}
            </Button>
          ))}
        </div>
        <p className="muted">{t('translations.languages.help')}</p>
        <ul className="stack stack--tight" aria-label={t('translations.languages.missingLabel')}>
          {TRANSLATION_LANGUAGES.map((l) => (
            <li key={l}>
              {languageSummary(t, l, {
                missing: missingTexts(texts, values.translations?.[l]).length,
                outdated: outdatedTexts(
                  texts,
                  values.translations ?? {},
                  l,
                  loaded,
                  values.reviewedTranslations ?? {},
                ).length,
                total: texts.length,
              })}
            </li>
          ))}
        </ul>
      </div>
    </Card>
  );
}
