import { useMemo, useState } from 'react';
import { FormProvider, useFieldArray, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Save, X } from 'lucide-react';
import { Button, Card, ConfirmDialog, TextArea } from '../../../components/ui';
import { notify, notifyFailure } from '../../../lib/toast';
import { adminT, useAdminT } from '../../../i18n/admin/admin-i18n';
import {
  assessmentSchema,
  formTexts,
  toForm,
  toSavePayload,
  type AssessmentForm,
} from '../api/assessment-schema';
import { useSaveAssessmentMutation } from '../api/assessments-api';
import { outdatedTexts, translatableTexts, type LoadedContent } from '../api/translations';
import {
  TRANSLATION_LANGUAGES,
  languageName,
  type AssessmentContent,
  type ContentLanguage,
  type TranslationLanguage,
} from '../api/types';
import { BasicSettingsCard } from './basic-settings-card';
import { ContentLanguageCard } from './content-language-card';
import { PracticeQuestionCard } from './practice-question-card';
import { QuestionOrderCard } from './question-order-card';
import { QuestionsCard } from './questions-card';
import { SectionsCard } from './sections-card';
import { TranslationsCard } from './translations-card';
import { UnsavedChangesGuard } from './unsaved-changes-guard';

interface AssessmentEditorProps {
  /** What the edit starts from; the form works on a copy of it. */
  source: AssessmentContent;
  /** The version the edit is based on, sent with the save so a stale edit is refused. */
  baseVersion?: number;
  /** The source itself is not saved (a file's import): leaving asks first even before any change. */
  unsaved?: boolean;
  /** Called when the edit is left without saving: lets go of the files only the source held. */
  onDiscard?: () => void;
  onClose: () => void;
}

/** Edit mode: a copy of the assessment in a form; Cancel discards it, Save sends it as a new version. */
export function AssessmentEditor({
  source,
  baseVersion,
  unsaved,
  onDiscard,
  onClose,
}: AssessmentEditorProps) {
  const t = useAdminT();
  const [save, { isLoading: saving }] = useSaveAssessmentMutation();
  const form = useForm<AssessmentForm>({
    resolver: zodResolver(assessmentSchema),
    defaultValues: toForm(source),
  });
  const {
    register,
    control,
    handleSubmit,
    formState: { isDirty },
  } = form;
  // keyName: the entities have their own `id` fields, which the form must keep.
  const sections = useFieldArray({ control, name: 'sections', keyName: 'key' });
  const questions = useFieldArray({ control, name: 'questions', keyName: 'key' });
  // Leaving an edit with changes asks first.
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  // The language the content is shown in: English is the version's own text, another its translation.
  const [language, setLanguage] = useState<ContentLanguage>('en');

  // The version the edit started from: a translation whose English the edit changes is told apart against it.
  const loaded: LoadedContent = useMemo(
    () => ({
      texts: translatableTexts(source),
      translations: source.translations,
      outdated: source.outdatedTranslations ?? {},
    }),
    [source],
  );
  // A save that leaves translations to review asks first, saying how many in which language.
  const [toReview, setToReview] = useState<{ language: TranslationLanguage; count: number }[] | null>(null);

  const notesPath = 'changeNotes';

  const changed = isDirty || Boolean(unsaved);
  const cancel = () => (changed ? setConfirmingCancel(true) : onClose());
  const discard = () => {
    onDiscard?.();
    onClose();
  };

  const onSubmit = async (values: AssessmentForm, reviewedFirst = false) => {
    const texts = formTexts(values);
    const outdated = TRANSLATION_LANGUAGES.map((l) => ({
      language: l,
      count: outdatedTexts(texts, values.translations, l, loaded, values.reviewedTranslations).length,
    })).filter((l) => l.count > 0);
    if (outdated.length && !reviewedFirst) {
      setToReview(outdated);
      return;
    }
    setToReview(null);
    try {
      await save(toSavePayload(values, baseVersion)).unwrap();
      notify.success(adminT('assessments.editor.saved'));
      onClose();
    } catch (err) {
      notifyFailure(err, adminT('assessments.updateFailed'));
    }
  };

  return (
    <FormProvider {...form}>
      <form
        className="stack assessment-editor"
        // A rule the English content breaks is shown where that content is: in English.
        onSubmit={handleSubmit(
          (values) => onSubmit(values),
          () => setLanguage('en'),
        )}
        noValidate
        aria-label={t('assessments.editor.formLabel')}
      >
        <UnsavedChangesGuard when={changed && !saving} onLeave={onDiscard} />
        <ContentLanguageCard language={language} onChange={setLanguage} loaded={loaded} />
        {language === 'en' ? (
          <>
            <BasicSettingsCard />
            <QuestionOrderCard />
            <PracticeQuestionCard />
            <SectionsCard sections={sections} questions={questions} />
            <QuestionsCard questions={questions} />
          </>
        ) : (
          <TranslationsCard language={language} loaded={loaded} />
        )}

        <Card title={t('assessments.editor.changeNotes.title')}>
          <TextArea
            label={t('assessments.editor.changeNotes.label')}
            hint={t('assessments.editor.changeNotes.hint')}
            {...register(notesPath)}
          />
        </Card>

        <div className="action-bar">
          <Button
            variant="secondary"
            icon={<X size={18} aria-hidden="true" />}
            onClick={cancel}
            disabled={saving}
          >
            {t('common.cancel')}
          </Button>
          <Button type="submit" icon={<Save size={18} aria-hidden="true" />} loading={saving}>
            {t('assessments.editor.save')}
          </Button>
        </div>
      </form>
      <ConfirmDialog
        open={confirmingCancel}
        title={t('assessments.editor.discard.title')}
        message={<p>{t('assessments.editor.discard.message')}</p>}
        confirmLabel={t('assessments.editor.discard.confirm')}
        cancelLabel={t('assessments.editor.discard.keepEditing')}
        tone="danger"
        onConfirm={discard}
        onCancel={() => setConfirmingCancel(false)}
      />
      <ConfirmDialog
        open={toReview !== null}
        title={t('translations.save.title')}
        message={
          <p>
            {t('translations.save.message', {
              count: (toReview ?? []).reduce((sum, l) => sum + l.count, 0),
              languages: (toReview ?? [])
                .map((l) =>
                  t('translations.save.languageCount', {
                    language: languageName(l.language),
                    count: l.count,
                  }),
                )
                .join(', '),
            })}
          </p>
        }
        confirmLabel={t('translations.save.confirm')}
        cancelLabel={t('translations.save.review')}
        busy={saving}
        onConfirm={() => void handleSubmit((values) => onSubmit(values, true))()}
        onCancel={() => {
          if (toReview?.[0]) setLanguage(toReview[0].language);
          setToReview(null);
        }}
      />
    </FormProvider>
  );
}
