import { useState } from 'react';
import { useFormContext, type UseFieldArrayReturn } from 'react-hook-form';
import { Trash2 } from 'lucide-react';
import { AddButton, Card, IconButton, Input, TextArea } from '../../../components/ui';
import { bindFields } from '../../../lib/forms';
import { useAdminT } from '../../../i18n/admin/admin-i18n';
import { newSection, type AssessmentForm } from '../api/assessment-schema';
import { GroupError } from './fields';
import { DrawField, useDrawCheck, useSectionDraws } from './question-draw';
import { RemoveSectionDialog } from './remove-section-dialog';

interface SectionsCardProps {
  sections: UseFieldArrayReturn<AssessmentForm, 'sections', 'key'>;
  /** A removed section's questions move to another section or go with it. */
  questions: UseFieldArrayReturn<AssessmentForm, 'questions', 'key'>;
}

/**
 * The sections, each with its title, description and how many of its questions each student is given;
 * removing one asks what becomes of its questions.
 */
export function SectionsCard({ sections, questions }: SectionsCardProps) {
  const t = useAdminT();
  const form = useFormContext<AssessmentForm>();
  const {
    register,
    getValues,
    setValue,
    formState: { errors },
  } = form;
  const field = bindFields(form);
  const [removingSection, setRemovingSection] = useState<number | null>(null);
  const draws = useSectionDraws();
  useDrawCheck(draws);

  const sectionToRemove = removingSection === null ? null : (getValues('sections')[removingSection] ?? null);
  const questionsOf = (sectionId: number) =>
    getValues('questions').flatMap((q, i) => (q.section === sectionId ? [i] : []));

  const moveQuestions = (target: number) => {
    if (removingSection === null || !sectionToRemove) return;
    for (const i of questionsOf(sectionToRemove.id)) {
      setValue(`questions.${i}.section`, target, { shouldDirty: true });
    }
    sections.remove(removingSection);
    setRemovingSection(null);
  };

  const deleteWithQuestions = () => {
    if (removingSection === null || !sectionToRemove) return;
    questions.remove(questionsOf(sectionToRemove.id));
    sections.remove(removingSection);
    setRemovingSection(null);
  };

  return (
    <Card
      title={t('assessments.sections.title')}
      actions={
        <AddButton onClick={() => sections.append(newSection(getValues('sections')))}>
          {t('assessments.sections.add')}
        </AddButton>
      }
    >
      <div className="stack stack--tight">
        {sections.fields.map((section, index) => (
          <fieldset className="section-editor" key={section.key}>
            <legend className="question-editor__legend">
              {t('assessments.sections.legend', { id: section.id })}
            </legend>
            <div className="question-editor__remove">
              <IconButton
                label={t('assessments.sections.remove', { id: section.id })}
                icon={<Trash2 size={16} />}
                className="btn--danger-text"
                onClick={() => setRemovingSection(index)}
              />
            </div>
            <Input
              label={t('assessments.sections.titleField', { id: section.id })}
              {...field(`sections.${index}.title`)}
            />
            <TextArea
              label={t('assessments.sections.description', { id: section.id })}
              rows={2}
              {...register(`sections.${index}.description`)}
            />
            <DrawField index={index} section={draws.find((d) => d.id === section.id)} />
          </fieldset>
        ))}
        <GroupError message={errors.sections?.message ?? errors.sections?.root?.message} />
      </div>
      <RemoveSectionDialog
        key={sectionToRemove?.id ?? 'none'}
        section={sectionToRemove}
        others={getValues('sections').filter((_, i) => i !== removingSection)}
        questionCount={sectionToRemove ? questionsOf(sectionToRemove.id).length : 0}
        onMove={moveQuestions}
        onDelete={deleteWithQuestions}
        onCancel={() => setRemovingSection(null)}
      />
    </Card>
  );
}
