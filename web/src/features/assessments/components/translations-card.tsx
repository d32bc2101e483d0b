import { useId } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { Badge, Button, Card } from '../../../components/ui';
import { AdminT, useAdminT } from '../../../i18n/admin/admin-i18n';
import { formTexts, type AssessmentForm } from '../api/assessment-schema';
import {
  fileIn,
  outdatedTexts,
  textIn,
  withFile,
  withText,
  type LoadedContent,
  type TranslatableText,
} from '../api/translations';
import { languageName, type TranslationLanguage } from '../api/types';
import { TranslatedFileField } from './translated-file-field';

interface TranslationFieldProps {
  text: TranslatableText;
  language: TranslationLanguage;
  value: string;
  onChange: (value: string) => void;
  /** Its English changed since it was written: marked, until it is changed or marked reviewed. */
  outdated: boolean;
  onReviewed: () => void;
}

/** The marker of a translation whose English changed since it was written, and the action that clears it. */
function OutdatedNote({
  id,
  text,
  language,
  onReviewed,
}: {
  id: string;
  text: TranslatableText;
  language: TranslationLanguage;
  onReviewed: () => void;
}) {
  const t = useAdminT();
  return (
    <div className="badge-stack" id={id}>
      <Badge tone="warning">{t('translations.outdated')}</Badge>
      <span className="muted">{t('translations.outdated.text')}</span>
      <Button
        size="sm"
        variant="secondary"
        onClick={onReviewed}
        aria-label={t('translations.outdated.markReviewedLabel', {
          label: text.label,
          language: languageName(language),
        })}
      >
        {t('translations.outdated.markReviewed')}
      </Button>
    </div>
  );
}

/**
 * One text's translation: the English text for reference, the field in the language (its `lang`, and right to
 * left for Arabic), and a marker while it is missing or while its English changed since it was written. Each
 * describes the field.
 */
function TranslationField({ text, language, value, onChange, outdated, onReviewed }: TranslationFieldProps) {
  const id = useId();
  const t = useAdminT();
  const missing = !value.trim();
  const notes = [`${id}-english`, missing && `${id}-missing`, outdated && `${id}-outdated`];
  const control = {
    id,
    className: text.long ? 'input textarea' : 'input',
    lang: language,
    dir: language === 'ar' ? 'rtl' : undefined,
    value,
    'aria-describedby': notes.filter(Boolean).join(' '),
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
      {outdated && (
        <OutdatedNote id={`${id}-outdated`} text={text} language={language} onReviewed={onReviewed} />
      )}
    </div>
  );
}

/**
 * The content in another language: every text students read, grouped as the editor groups them, and the file each
 * question offers to download, which the language may give its own of. `loaded` is the version the edit started
 * from, against which a translation whose English changed is told apart.
 */
export function TranslationsCard({
  language,
  loaded,
}: {
  language: TranslationLanguage;
  loaded: LoadedContent;
}) {
  const t = useAdminT();
  const { control, getValues, setValue } = useFormContext<AssessmentForm>();
  const values = useWatch({ control }) as AssessmentForm;
  const translation = values.translations?.[language];
  const texts = formTexts(values);
  const groups = [...new Set(texts.map((text) => text.group))];
  const outdated = new Set(
    outdatedTexts(texts, values.translations ?? {}, language, loaded, values.reviewedTranslations ?? {}),
  );
  const reviewed = (text: TranslatableText) => {
    const all = getValues('reviewedTranslations');
    setValue(
      'reviewedTranslations',
      { ...all, [language]: [...(all[language] ?? []), text.path] },
      { shouldDirty: true },
    );
  };
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
                  <div key={text.path.join('/')}>
                    <TranslatedFileField
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
                    {outdated.has(text) && (
                      <OutdatedNote
                        id={`${text.path.join('-')}-outdated`}
                        text={text}
                        language={language}
                        onReviewed={() => reviewed(text)}
                      />
                    )}
                  </div>
                ) : (
                  <TranslationField
                    key={text.path.join('/')}
                    text={text}
                    language={language}
                    value={textIn(translation, text.path)}
                    onChange={(value) => change(text.path, value)}
                    outdated={outdated.has(text)}
                    onReviewed={() => reviewed(text)}
                  />
                ),
              )}
          </fieldset>
        ))}
      </div>
    </Card>
  );
}
