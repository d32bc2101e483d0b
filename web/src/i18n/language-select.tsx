import { useId, useState } from 'react';
import { Languages } from 'lucide-react';
import { useLanguage, useT } from './react';
import { isLanguage, LANGUAGE_NAMES, LANGUAGES, textDirection, type Language } from './languages';

interface LanguageSelectProps {
  /** The visitor chose a language: the page activates it (and may keep the choice); settled once it shows. */
  onChange(language: Language): Promise<void>;
  /** In a compact header the label is for screen readers only; the icon stands for it. */
  labelHidden?: boolean;
}

/**
 * The language switcher: a labelled select, each language by its own name and marked with its own `lang`, so a
 * screen reader reads 'Français' as French. It shows the choice at once, while the catalogue downloads.
 */
export function LanguageSelect({ onChange, labelHidden = false }: LanguageSelectProps) {
  const id = useId();
  const t = useT();
  const { language } = useLanguage();
  // The choice shows until the page has changed language, or failed to.
  const [chosen, setChosen] = useState<Language | null>(null);
  return (
    <div className={`language-select${labelHidden ? ' language-select--compact' : ''}`}>
      <label htmlFor={id} className="language-select__label">
        <Languages size={16} aria-hidden="true" />
        <span className={labelHidden ? 'visually-hidden' : undefined}>{t('language.label')}</span>
      </label>
      <select
        id={id}
        className="input select language-select__control"
        value={chosen ?? language}
        onChange={(event) => {
          const next = event.target.value;
          if (!isLanguage(next)) return;
          setChosen(next);
          void onChange(next)
            .catch(() => undefined)
            .finally(() => setChosen(null));
        }}
      >
        {LANGUAGES.map((l) => (
          <option key={l} value={l} lang={l} dir={textDirection(l)}>
            {LANGUAGE_NAMES[l]}
          </option>
        ))}
      </select>
    </div>
  );
}
