import { useFormContext, useWatch } from 'react-hook-form';
import { Button, Card } from '../../../components/ui';
import { formTexts, type AssessmentForm } from '../api/assessment-schema';
import { missingTexts } from '../api/translations';
import {
  CONTENT_LANGUAGES,
  TRANSLATION_LANGUAGES,
  languageName,
  type ContentLanguage,
  type TranslationLanguage,
} from '../api/types';

/** "Arabic: 3 of 24 texts missing", or "Arabic: all 24 texts translated". */
export const missingSummary = (language: TranslationLanguage, missing: number, total: number) =>
  missing === 0
    ? `${languageName(language)}: all ${total} texts translated`
    : `${languageName(language)}: ${missing} of ${total} texts missing`;

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
  const { control } = useFormContext<AssessmentForm>();
  const values = useWatch({ control }) as AssessmentForm;
  const texts = formTexts(values);
  return (
    <Card title="Content Language">
      <div className="form">
        <div className="toolbar" role="group" aria-label="Content language">
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
        <p className="muted">
          English is the version&apos;s own text. In another language, each text shows its English above a
          field for the translation; a text left empty is shown to students in English.
        </p>
        <ul className="stack stack--tight" aria-label="Missing translations">
          {TRANSLATION_LANGUAGES.map((l) => (
            <li key={l}>
              {missingSummary(l, missingTexts(texts, values.translations?.[l]).length, texts.length)}
            </li>
          ))}
        </ul>
      </div>
    </Card>
  );
}
