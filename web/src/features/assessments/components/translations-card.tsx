import { useId } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { Badge, Card } from '../../../components/ui';
import { AdminT, useAdminT } from '../../../i18n/admin/admin-i18n';
import { formTexts, type AssessmentForm } from '../api/assessment-schema';
import { fileIn, textIn, withFile, withText, type TranslatableText } from '../api/translations';
import { languageName, type TranslationLanguage } from '../api/types';
import { TranslatedFileField } from './translated-file-field';

interface TranslationFieldProps {
  text: TranslatableText;
  language: TranslationLanguage;
  value: string;
  onChange: (value: string) => void;
}

/**
 * One text's translation: the English text for reference, the field in the language (its `lang`, and right to
 * left for Arabic), and a marker while it is missing. Both describe the field.
 */
function TranslationField({ text, language, value, onChange }: TranslationFieldProps) {
  const id = useId();
  const t = useAdminT();
  const missing = !value.trim();
  const control = {
    id,
    className: text.long ? 'input textarea' : 'input',
    lang: language,
    dir: language === 'ar' ? 'rtl' : undefined,
    value,
    'aria-describedby': missing ? `${id}-english ${id}-missing` : `${id}-english`,
  };
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {t('translations.field.label', { label: text.label, language: languageName(language) })}
      </label>
      <p className="field__hint" id={`${id}-english`}>
        <AdminT
          id="translations.field.english"
          values={{ english: text.english }}
          components={{ 0: <span lang="en" /> }}
        />
      </p>
      {text.long ? (
        <textarea rows={2} {...control} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input type="text" {...control} onChange={(e) => onChange(e.target.value)} />
      )}
      {missing && (
        <p className="badge-stack" id={`${id}-missing`}>
          <Badge tone="warning">{t('translations.missing')}</Badge>
          <span className="muted">{t('translations.missing.text')}</span>
        </p>
      )}
    </div>
  );
}

/**
 * The content in another language: every text students read, grouped as the editor groups them, and the file each
 * question offers to download, which the language may give its own of.
 */
export function TranslationsCard({ language }: { language: TranslationLanguage }) {
  const t = useAdminT();
  const { control, getValues, setValue } = useFormContext<AssessmentForm>();
  const values = useWatch({ control }) as AssessmentForm;
  const translation = values.translations?.[language];
  const texts = formTexts(values);
  const groups = [...new Set(texts.map((text) => text.group))];
  const change = (path: string[], value: string) =>
    setValue('translations', withText(getValues('translations'), language, path, value), {
      shouldDirty: true,
    });
  return (
    <Card title={t('translations.card.title', { language: languageName(language) })}>
      <div className="stack stack--tight">
        {groups.map((group) => (
          <fieldset className="section-editor" key={group}>
            <legend className="question-editor__legend">{group}</legend>
            {texts
              .filter((text) => text.group === group)
              .map((text) =>
                text.file ? (
                  <TranslatedFileField
                    key={text.path.join('/')}
                    text={text}
                    language={language}
                    file={fileIn(translation, text.path)}
                    onChange={(file) =>
                      setValue(
                        'translations',
                        withFile(getValues('translations'), language, text.path, file),
                        {
                          shouldDirty: true,
                        },
                      )
                    }
                  />
                ) : (
                  <TranslationField
                    key={text.path.join('/')}
                    text={text}
                    language={language}
                    value={textIn(translation, text.path)}
                    onChange={(value) => change(text.path, value)}
                  />
                ),
              )}
          </fieldset>
        ))}
      </div>
    </Card>
  );
}
