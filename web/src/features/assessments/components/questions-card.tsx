import { useState } from 'react';
import { useFormContext, type UseFieldArrayReturn } from 'react-hook-form';
import { AddButton, Card, ConfirmDialog, EmptyState } from '../../../components/ui';
import { newQuestion, type AssessmentForm } from '../api/assessment-schema';
import { DrawSummary } from './question-draw';
import { QuestionEditor } from './question-editor';

interface QuestionsCardProps {
  questions: UseFieldArrayReturn<AssessmentForm, 'questions', 'key'>;
}

/** The questions, each in its editor; a new one goes to section 1, or the first section there is. */
export function QuestionsCard({ questions }: QuestionsCardProps) {
  const { getValues } = useFormContext<AssessmentForm>();
  const [removingQuestion, setRemovingQuestion] = useState<number | null>(null);

  const addQuestion = () => {
    const question = newQuestion();
    const firstSection = getValues('sections')[0]?.id ?? 1;
    questions.append({
      ...question,
      section: getValues('sections').some((s) => s.id === 1) ? 1 : firstSection,
    });
  };

  return (
    <Card title="Questions" actions={<AddButton onClick={addQuestion}>Add Question</AddButton>}>
      {questions.fields.length === 0 ? (
        <EmptyState title="No questions yet" description="Add a question to start." />
      ) : (
        <div className="stack stack--tight">
          <DrawSummary />
          {questions.fields.map((question, index) => (
            <QuestionEditor key={question.key} index={index} onRemove={() => setRemovingQuestion(index)} />
          ))}
        </div>
      )}
      <ConfirmDialog
        open={removingQuestion !== null}
        title={`Remove Question ${(removingQuestion ?? 0) + 1}?`}
        message={<p>The question and its answer are removed when you save.</p>}
        confirmLabel="Remove Question"
        tone="danger"
        onConfirm={() => {
          if (removingQuestion !== null) questions.remove(removingQuestion);
          setRemovingQuestion(null);
        }}
        onCancel={() => setRemovingQuestion(null)}
      />
    </Card>
  );
}
