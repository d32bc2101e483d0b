import { useId, useState } from 'react';
import { CheckCircle2, Info } from 'lucide-react';
import { Button } from '../../../components/ui';
import { T, useT } from '../../../i18n/react';
import type { PracticeQuestion } from '../api/types';
import type { AssessmentContent, Localized, LocalizedChoice } from '../content';
import { Choices, choicesOf } from './choices';

type Feedback = { right: true } | { right: false; answer: Localized };

/** What checking `chosen` tells the student: right, or not and which answer is, in the words the page shows it. */
export function practiceFeedback(
  choices: LocalizedChoice[],
  correctAnswer: string,
  chosen: string,
): Feedback {
  if (chosen === correctAnswer) return { right: true };
  const answer = choices.find((c) => c.id === correctAnswer);
  return { right: false, answer: answer ?? { text: correctAnswer, lang: 'en' } };
}

/**
 * The version's practice question on the welcome page: answered and checked here only. Nothing is sent, the
 * clock has not started, and Start never waits for it. The feedback is announced politely; a new choice clears
 * it, so checking again announces it again.
 */
export function PracticeQuestionCard({
  practice,
  content,
}: {
  practice: PracticeQuestion;
  content: AssessmentContent;
}) {
  const titleId = useId();
  const textId = useId();
  const name = useId();
  const t = useT();
  const [chosen, setChosen] = useState<string>();
  // What was checked: its feedback follows a change of language.
  const [checked, setChecked] = useState<string | null>(null);
  const texts = content.practice(practice);
  const choices = choicesOf(t, practice.type, texts.options, content.language);
  const feedback = checked === null ? null : practiceFeedback(choices, practice.correctAnswer, checked);

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
        <p className="question__text practice__text" id={textId} {...content.mark(texts.question)}>
          {texts.question.text}
        </p>
        <Choices name={name} choices={choices} chosen={chosen} onChoose={choose} mark={content.mark} />
      </fieldset>
      <div className="practice__check">
        <Button variant="secondary" disabled={!chosen} onClick={() => chosen && setChecked(chosen)}>
          {t('practice.check')}
        </Button>
        <p
          role="status"
          className={`practice__feedback${feedback ? ` practice__feedback--${feedback.right ? 'right' : 'wrong'}` : ''}`}
        >
          {/* The icon and the sentence are the row's two items: words and the answer's `bdi` loose in the row
              would each be an item of their own, with the row's gap between them ('Mercury .'). */}
          {feedback &&
            (feedback.right ? (
              <>
                <CheckCircle2 size={18} aria-hidden="true" />
                <span>{t('practice.right')}</span>
              </>
            ) : (
              <>
                <Info size={18} aria-hidden="true" />
                <span>
                  <T
                    id="practice.wrong"
                    values={{
                      answer: <bdi {...content.mark(feedback.answer)}>{feedback.answer.text}</bdi>,
                    }}
                  />
                </span>
              </>
            ))}
        </p>
      </div>
    </section>
  );
}
