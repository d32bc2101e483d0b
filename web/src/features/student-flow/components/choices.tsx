import type { Translate } from '../../../i18n/i18n';
import type { Language } from '../../../i18n/languages';
import type { LanguageMarks, Localized, LocalizedChoice } from '../content';

/**
 * What a yes/no or multiple-choice question offers: Yes and No (in the page's language), or its own options (as the
 * page's language gives them, `assessmentContent`).
 */
export const choicesOf = (
  t: Translate,
  type: string,
  options: LocalizedChoice[],
  language: Language,
): LocalizedChoice[] =>
  type === 'yes_no'
    ? [
        { id: 'yes', text: t('choice.yes'), lang: language },
        { id: 'no', text: t('choice.no'), lang: language },
      ]
    : options;

interface ChoicesProps {
  /** The radio group's name, one per question on the page. */
  name: string;
  choices: LocalizedChoice[];
  chosen: string | undefined;
  onChoose: (id: string) => void;
  /** How a text is marked on the page (an option left in English says so). */
  mark: (text: Localized) => LanguageMarks;
}

/**
 * A question's answers as a radio group, each a whole clickable line; the fieldset around it names the
 * group with the question. The answer is the option's id, whatever language its words show in.
 */
export function Choices({ name, choices, chosen, onChoose, mark }: ChoicesProps) {
  return (
    <div className="question__choices">
      {choices.map((choice) => (
        <label key={choice.id} className={`choice${chosen === choice.id ? ' choice--selected' : ''}`}>
          <input
            type="radio"
            name={name}
            value={choice.id}
            checked={chosen === choice.id}
            onChange={() => onChoose(choice.id)}
          />
          <span {...mark(choice)}>{choice.text}</span>
        </label>
      ))}
    </div>
  );
}
