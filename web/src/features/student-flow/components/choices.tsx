import type { Translate } from '../../../i18n/i18n';

/** One answer a choice question offers: an option, or Yes / No. */
export interface Choice {
  id: string;
  text: string;
}

/** What a yes/no or multiple-choice question offers: Yes and No (in the page's language), or its own options. */
export const choicesOf = (t: Translate, question: { type: string; options: Choice[] }): Choice[] =>
  question.type === 'yes_no'
    ? [
        { id: 'yes', text: t('choice.yes') },
        { id: 'no', text: t('choice.no') },
      ]
    : question.options;

interface ChoicesProps {
  /** The radio group's name, one per question on the page. */
  name: string;
  choices: Choice[];
  chosen: string | undefined;
  onChoose: (id: string) => void;
}

/**
 * A question's answers as a radio group, each a whole clickable line; the fieldset around it names the
 * group with the question.
 */
export function Choices({ name, choices, chosen, onChoose }: ChoicesProps) {
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
          <span dir="auto">{choice.text}</span>
        </label>
      ))}
    </div>
  );
}
