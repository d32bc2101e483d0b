import { useId } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { Badge, Card } from '../../../components/ui';
import { formTexts, type AssessmentForm } from '../api/assessment-schema';
import { textIn, withText, type TranslatableText } from '../api/translations';
import { languageName, type TranslationLanguage } from '../api/types';

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
        {text.label} in {languageName(language)}
      </label>
      <p className="field__hint" id={`${id}-english`}>
        English: <span lang="en">{text.english}</span>
      </p>
      {text.long ? (
        <textarea rows={2} {...control} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input type="text" {...control} onChange={(e) => onChange(e.target.value)} />
      )}
      {missing && (
        <p className="badge-stack" id={`${id}-missing`}>
          <Badge tone="warning">Missing</Badge>
          <span className="muted">Students see the English text.</span>
        </p>
      )}
    </div>
  );
}

/** The content in another language: every text students read, grouped as the editor groups them. */
export function TranslationsCard({ language }: { language: TranslationLanguage }) {
  const { control, getValues, setValue } = useFormContext<AssessmentForm>();
  const values = useWatch({ control }) as AssessmentForm;
  const translation = values.translations?.[language];
  const texts = formTexts(values);
  const groups = [...new Set(texts.map((t) => t.group))];
  const change = (path: string[], value: string) =>
    setValue('translations', withText(getValues('translations'), language, path, value), {
      shouldDirty: true,
    });
  return (
    <Card title={`${languageName(language)} Translation`}>
      <div className="stack stack--tight">
        {groups.map((group) => (
          <fieldset className="section-editor" key={group}>
            <legend className="question-editor__legend">{group}</legend>
            {texts
              .filter((t) => t.group === group)
              .map((t) => (
                <TranslationField
                  key={t.path.join('/')}
                  text={t}
                  language={language}
                  value={textIn(translation, t.path)}
                  onChange={(value) => change(t.path, value)}
                />
              ))}
          </fieldset>
        ))}
      </div>
    </Card>
  );
}
