/** One answer a choice question offers: an option, or Yes / No. */
export interface Choice {
  id: string;
  text: string;
}

const YES_NO: Choice[] = [
  { id: 'yes', text: 'Yes' },
  { id: 'no', text: 'No' },
];

/** What a yes/no or multiple-choice question offers: Yes and No, or its own options. */
export const choicesOf = (question: { type: string; options: Choice[] }): Choice[] =>
  question.type === 'yes_no' ? YES_NO : question.options;

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
          <span>{choice.text}</span>
        </label>
      ))}
    </div>
  );
}
