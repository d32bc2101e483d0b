import { useState } from 'react';
import { FormProvider, useFieldArray, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Save, Trash2, X } from 'lucide-react';
import {
  AddButton,
  Button,
  Card,
  ConfirmDialog,
  EmptyState,
  IconButton,
  Input,
  NumberInput,
  TextArea,
} from '../../../components/ui';
import { bindFields } from '../../../lib/forms';
import { notify, notifyFailure } from '../../../lib/toast';
import {
  assessmentSchema,
  newQuestion,
  newSection,
  toForm,
  toSavePayload,
  type AssessmentForm,
} from '../api/assessment-schema';
import { useSaveAssessmentMutation } from '../api/assessments-api';
import type { AssessmentContent } from '../api/types';
import { GroupError } from './fields';
import { QuestionEditor } from './question-editor';
import { RemoveSectionDialog } from './remove-section-dialog';
import { UnsavedChangesGuard } from './unsaved-changes-guard';

interface AssessmentEditorProps {
  /** What the edit starts from; the form works on a copy of it. */
  source: AssessmentContent;
  /** The version the edit is based on, sent with the save so a stale edit is refused. */
  baseVersion?: number;
  onClose: () => void;
}

/** Edit mode: a copy of the assessment in a form; Cancel discards it, Save sends it as a new version. */
export function AssessmentEditor({ source, baseVersion, onClose }: AssessmentEditorProps) {
  const [save, { isLoading: saving }] = useSaveAssessmentMutation();
  const form = useForm<AssessmentForm>({
    resolver: zodResolver(assessmentSchema),
    defaultValues: toForm(source),
  });
  const {
    register,
    control,
    handleSubmit,
    getValues,
    setValue,
    formState: { errors, isDirty },
  } = form;
  const field = bindFields(form);
  // keyName: the entities have their own `id` fields, which the form must keep.
  const sections = useFieldArray({ control, name: 'sections', keyName: 'key' });
  const questions = useFieldArray({ control, name: 'questions', keyName: 'key' });

  // What the open confirmation is about: a section (by index), a question (by index) or leaving the edit.
  const [removingSection, setRemovingSection] = useState<number | null>(null);
  const [removingQuestion, setRemovingQuestion] = useState<number | null>(null);
  const [confirmingCancel, setConfirmingCancel] = useState(false);

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

  const cancel = () => (isDirty ? setConfirmingCancel(true) : onClose());

  const onSubmit = async (values: AssessmentForm) => {
    try {
      await save(toSavePayload(values, baseVersion)).unwrap();
      notify.success('Assessment updated successfully - New version created');
      onClose();
    } catch (err) {
      notifyFailure(err, 'Failed to update assessment');
    }
  };

  const addQuestion = () => {
    const question = newQuestion();
    const firstSection = getValues('sections')[0]?.id ?? 1;
    questions.append({
      ...question,
      section: getValues('sections').some((s) => s.id === 1) ? 1 : firstSection,
    });
  };

  return (
    <FormProvider {...form}>
      <form
        className="stack assessment-editor"
        onSubmit={handleSubmit(onSubmit)}
        noValidate
        aria-label="Edit assessment"
      >
        <UnsavedChangesGuard when={isDirty && !saving} />
        <Card title="Basic Settings">
          <div className="form">
            <Input label="Title" {...field('title')} />
            <TextArea label="Description" {...field('description')} />
            <div className="form-grid">
              <NumberInput
                label="Time limit (minutes)"
                min={1}
                step={1}
                {...field('timeLimit', { valueAsNumber: true })}
              />
              <NumberInput
                label="Passing score (%)"
                min={0}
                max={100}
                {...field('passingScore', { valueAsNumber: true })}
              />
            </div>
          </div>
        </Card>

        <Card
          title="Sections"
          actions={
            <AddButton onClick={() => sections.append(newSection(getValues('sections')))}>
              Add Section
            </AddButton>
          }
        >
          <div className="stack stack--tight">
            {sections.fields.map((section, index) => (
              <fieldset className="section-editor" key={section.key}>
                <legend className="question-editor__legend">Section {section.id}</legend>
                <div className="question-editor__remove">
                  <IconButton
                    label={`Remove Section ${section.id}`}
                    icon={<Trash2 size={16} />}
                    className="btn--danger-text"
                    onClick={() => setRemovingSection(index)}
                  />
                </div>
                <Input label={`Section ${section.id} title`} {...field(`sections.${index}.title`)} />
                <TextArea
                  label={`Section ${section.id} description`}
                  rows={2}
                  {...register(`sections.${index}.description`)}
                />
              </fieldset>
            ))}
            <GroupError message={errors.sections?.message ?? errors.sections?.root?.message} />
          </div>
        </Card>

        <Card title="Questions" actions={<AddButton onClick={addQuestion}>Add Question</AddButton>}>
          {questions.fields.length === 0 ? (
            <EmptyState title="No questions yet" description="Add a question to start." />
          ) : (
            <div className="stack stack--tight">
              {questions.fields.map((question, index) => (
                <QuestionEditor
                  key={question.key}
                  index={index}
                  onRemove={() => setRemovingQuestion(index)}
                />
              ))}
            </div>
          )}
        </Card>

        <Card title="Change Notes">
          <TextArea
            label="Change notes (optional)"
            hint="Say what changed; the notes are kept with the new version."
            {...register('changeNotes')}
          />
        </Card>

        <div className="action-bar">
          <Button
            variant="secondary"
            icon={<X size={18} aria-hidden="true" />}
            onClick={cancel}
            disabled={saving}
          >
            Cancel
          </Button>
          <Button type="submit" icon={<Save size={18} aria-hidden="true" />} loading={saving}>
            Save Changes
          </Button>
        </div>
      </form>
      <RemoveSectionDialog
        key={sectionToRemove?.id ?? 'none'}
        section={sectionToRemove}
        others={getValues('sections').filter((_, i) => i !== removingSection)}
        questionCount={sectionToRemove ? questionsOf(sectionToRemove.id).length : 0}
        onMove={moveQuestions}
        onDelete={deleteWithQuestions}
        onCancel={() => setRemovingSection(null)}
      />
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
      <ConfirmDialog
        open={confirmingCancel}
        title="Discard unsaved changes?"
        message={<p>Your edits to the assessment are not saved. Cancel discards them.</p>}
        confirmLabel="Discard Changes"
        cancelLabel="Keep Editing"
        tone="danger"
        onConfirm={onClose}
        onCancel={() => setConfirmingCancel(false)}
      />
    </FormProvider>
  );
}
