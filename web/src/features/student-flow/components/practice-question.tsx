import { useId, useState } from 'react';
import { CheckCircle2, Info } from 'lucide-react';
import { Button } from '../../../components/ui';
import type { Translate } from '../../../i18n/i18n';
import { useT } from '../../../i18n/react';
import type { PracticeQuestion } from '../api/types';
import { Choices, choicesOf } from './choices';

interface Feedback {
  right: boolean;
  text: string;
}

/** What checking `chosen` tells the student: right, or not and which answer is. */
export function practiceFeedback(t: Translate, practice: PracticeQuestion, chosen: string): Feedback {
  if (chosen === practice.correctAnswer) return { right: true, text: t('practice.right') };
  const answer = choicesOf(t, practice).find((c) => c.id === practice.correctAnswer)?.text;
  return { right: false, text: t('practice.wrong', { answer: answer ?? practice.correctAnswer }) };
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
  const t = useT();
  const [chosen, setChosen] = useState<string>();
  // What was checked: its feedback follows a change of language.
  const [checked, setChecked] = useState<string | null>(null);
  const feedback = checked === null ? null : practiceFeedback(t, practice, checked);

  const choose = (id: string) => {
    setChosen(id);
    setChecked(null);
  };

  return (
    <section className="card card__body stack stack--tight practice" aria-labelledby={titleId}>
      <div>
        <h2 id={titleId} className="welcome__heading practice__title">
          {t('practice.title')}
        </h2>
        <p className="muted">{t('practice.note')}</p>
      </div>
      <fieldset className="practice__question" aria-labelledby={textId}>
        <p className="question__text practice__text" id={textId} dir="auto">
          {practice.question}
        </p>
        <Choices name={name} choices={choicesOf(t, practice)} chosen={chosen} onChoose={choose} />
      </fieldset>
      <div className="practice__check">
        <Button variant="secondary" disabled={!chosen} onClick={() => chosen && setChecked(chosen)}>
          {t('practice.check')}
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
