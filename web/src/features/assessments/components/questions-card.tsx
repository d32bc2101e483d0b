import { useState } from 'react';
import { useFormContext, type UseFieldArrayReturn } from 'react-hook-form';
import { AddButton, Card, ConfirmDialog, EmptyState } from '../../../components/ui';
import { useAdminT } from '../../../i18n/admin/admin-i18n';
import { newQuestion, type AssessmentForm } from '../api/assessment-schema';
import { DrawSummary } from './question-draw';
import { QuestionEditor } from './question-editor';

interface QuestionsCardProps {
  questions: UseFieldArrayReturn<AssessmentForm, 'questions', 'key'>;
}

/** The questions, each in its editor; a new one goes to section 1, or the first section there is. */
export function QuestionsCard({ questions }: QuestionsCardProps) {
  const t = useAdminT();
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
    <Card
      title={t('assessments.questions.title')}
      actions={<AddButton onClick={addQuestion}>{t('assessments.questions.add')}</AddButton>}
    >
      {questions.fields.length === 0 ? (
        <EmptyState
          title={t('assessments.questions.empty.title')}
          description={t('assessments.questions.empty.description')}
        />
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
        title={t('assessments.questions.remove.title', { number: (removingQuestion ?? 0) + 1 })}
        message={<p>{t('assessments.questions.remove.message')}</p>}
        confirmLabel={t('assessments.questions.remove.confirm')}
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
