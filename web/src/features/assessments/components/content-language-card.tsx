import { useFormContext, useWatch } from 'react-hook-form';
import { Button, Card } from '../../../components/ui';
import { useAdminT, type AdminTranslate } from '../../../i18n/admin/admin-i18n';
import { formTexts, type AssessmentForm } from '../api/assessment-schema';
import { missingTexts } from '../api/translations';
import {
  CONTENT_LANGUAGES,
  TRANSLATION_LANGUAGES,
  languageName,
  type ContentLanguage,
  type TranslationLanguage,
} from '../api/types';

/** "Arabic: 3 of 24 texts missing", or "Arabic: all 24 texts translated" (a question's file counts as a text). */
export const missingSummary = (
  t: AdminTranslate,
  language: TranslationLanguage,
  missing: number,
  total: number,
) =>
  missing === 0
    ? t('translations.languages.allTranslated', { language: languageName(language), total })
    : t('translations.languages.missing', { language: languageName(language), missing, total });

interface ContentLanguageCardProps {
  language: ContentLanguage;
  onChange: (language: ContentLanguage) => void;
}

/**
 * Which language the editor shows the content in (English: the version's own text; another: its translation, text
 * by text), and how many texts each language still misses. A save with missing texts is allowed: students see
 * those in English.
 */
export function ContentLanguageCard({ language, onChange }: ContentLanguageCardProps) {
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
              {missingSummary(t, l, missingTexts(texts, values.translations?.[l]).length, texts.length)}
            </li>
          ))}
        </ul>
      </div>
    </Card>
  );
}
