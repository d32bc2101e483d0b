import { useId, useState } from 'react';
import { CheckCircle2, Info } from 'lucide-react';
import { Button } from '../../../components/ui';
import type { PracticeQuestion } from '../api/types';
import { Choices, choicesOf } from './choices';

interface Feedback {
  right: boolean;
  text: string;
}

/** What checking `chosen` tells the student: right, or not and which answer is. */
export function practiceFeedback(practice: PracticeQuestion, chosen: string): Feedback {
  if (chosen === practice.correctAnswer) return { right: true, text: "That's right." };
  const answer = choicesOf(practice).find((c) => c.id === practice.correctAnswer)?.text;
  return { right: false, text: `Not quite. The answer is: ${answer ?? practice.correctAnswer}.` };
}

/**
 * The version's practice question on the welcome page: answered and checked here only. Nothing is sent, the
 * clock has not started, and Start never waits for it. The feedback is announced politely; a new choice clears
 * it, so checking again announces it again.
 */
export function PracticeQuestionCard({ practice }: { practice: PracticeQuestion }) {
  const titleId = useId();
  const textId = useId();
  const name = useId();
  const [chosen, setChosen] = useState<string>();
  const [feedback, setFeedback] = useState<Feedback | null>(null);

  const choose = (id: string) => {
    setChosen(id);
    setFeedback(null);
  };

  return (
    <section className="card card__body stack stack--tight practice" aria-labelledby={titleId}>
      <div>
        <h2 id={titleId} className="welcome__heading practice__title">
          Try a practice question
        </h2>
        <p className="muted">Untimed and not scored: it only shows how questions work.</p>
      </div>
      <fieldset className="practice__question" aria-labelledby={textId}>
        <p className="question__text practice__text" id={textId}>
          {practice.question}
        </p>
        <Choices name={name} choices={choicesOf(practice)} chosen={chosen} onChoose={choose} />
      </fieldset>
      <div className="practice__check">
        <Button
          variant="secondary"
          disabled={!chosen}
          onClick={() => chosen && setFeedback(practiceFeedback(practice, chosen))}
        >
          Check answer
        </Button>
        <p
          role="status"
          className={`practice__feedback${feedback ? ` practice__feedback--${feedback.right ? 'right' : 'wrong'}` : ''}`}
        >
          {feedback &&
            (feedback.right ? (
              <CheckCircle2 size={18} aria-hidden="true" />
            ) : (
              <Info size={18} aria-hidden="true" />
            ))}
          {feedback?.text}
        </p>
      </div>
    </section>
  );
}
