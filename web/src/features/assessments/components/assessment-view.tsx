import { useState } from 'react';
import { Download } from 'lucide-react';
import { Badge, Card } from '../../../components/ui';
import { notifyFailure } from '../../../lib/toast';
import { adminT, useAdminT, type AdminTranslate } from '../../../i18n/admin/admin-i18n';
import { downloadAssessmentFile, TransferError } from '../api/file-transfer';
import { languagesPresent, translatableTexts } from '../api/translations';
import {
  languageName,
  questionsGiven,
  typeLabel,
  type AssessmentContent,
  type DownloadableFile,
  type PracticeQuestion,
  type Question,
} from '../api/types';
import { QuestionFileChip } from './question-file-chip';

function answerText(
  question: Pick<Question, 'type' | 'options' | 'correctAnswer'>,
  t: AdminTranslate,
): string {
  if (question.type === 'file_upload') return t('assessments.view.noCorrectAnswer');
  if (question.type === 'yes_no') {
    return question.correctAnswer === 'no' ? t('assessments.answer.no') : t('assessments.answer.yes');
  }
  return question.options?.find((o) => o.id === question.correctAnswer)?.text ?? '—';
}

function FileDownload({ file }: { file: DownloadableFile }) {
  const t = useAdminT();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      await downloadAssessmentFile(file);
    } catch (err) {
      notifyFailure(
        err instanceof TransferError && err.serverMessage ? { data: { message: err.serverMessage } } : err,
        adminT('assessments.view.downloadFailed'),
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <QuestionFileChip
      file={file}
      label={t('assessments.view.download')}
      Icon={Download}
      loading={busy}
      aria-label={t('assessments.view.downloadLabel', { name: file.originalName })}
      onClick={download}
    />
  );
}

function QuestionView({ question, number }: { question: Question; number: number }) {
  const t = useAdminT();
  return (
    <li className="question-view">
      <div className="question-view__head">
        <span className="question-view__number">{t('assessments.view.questionNumber', { number })}</span>
        <p className="question-view__text">{question.question}</p>
      </div>
      <div className="question-view__meta">
        <Badge tone="info">{typeLabel(question.type)}</Badge>
        <Badge tone="neutral">{t('assessments.view.points', { points: question.points })}</Badge>
        <Badge tone={question.required ? 'warning' : 'neutral'}>
          {question.required ? t('assessments.view.required') : t('assessments.view.optional')}
        </Badge>
      </div>
      {question.type === 'multiple_choice' && (
        <ul className="question-view__options" aria-label={t('assessments.view.optionsOf', { number })}>
          {(question.options ?? []).map((o) => (
            <li key={o.id} className={o.id === question.correctAnswer ? 'is-correct' : undefined}>
              {o.text}
              {o.id === question.correctAnswer && (
                <span className="visually-hidden"> {t('assessments.view.correctMark')}</span>
              )}
            </li>
          ))}
        </ul>
      )}
      {question.type === 'file_upload' && question.fileInstructions && (
        <p className="muted">{question.fileInstructions}</p>
      )}
      <p className="question-view__answer">
        <span className="muted">{t('assessments.view.correctAnswer')} </span>
        {answerText(question, t)}
      </p>
      {question.hasDownloadableFile && question.downloadableFile && (
        <FileDownload file={question.downloadableFile} />
      )}
    </li>
  );
}

/** The practice question the welcome page offers before Start, with its answer. */
function PracticeView({ practice }: { practice: PracticeQuestion }) {
  const t = useAdminT();
  return (
    <Card title={t('assessments.view.practiceTitle')}>
      <div className="question-view">
        <p className="question-view__text">{practice.question}</p>
        <div className="question-view__meta">
          <Badge tone="info">{typeLabel(practice.type)}</Badge>
        </div>
        {practice.type === 'multiple_choice' && (
          <ul className="question-view__options" aria-label={t('assessments.view.practiceOptions')}>
            {practice.options.map((o) => (
              <li key={o.id} className={o.id === practice.correctAnswer ? 'is-correct' : undefined}>
                {o.text}
                {o.id === practice.correctAnswer && (
                  <span className="visually-hidden"> {t('assessments.view.correctMark')}</span>
                )}
              </li>
            ))}
          </ul>
        )}
        <p className="question-view__answer">
          <span className="muted">{t('assessments.view.correctAnswer')} </span>
          {answerText(practice, t)}
        </p>
      </div>
    </Card>
  );
}

/**
 * "English, Spanish, Arabic (3 of 24 texts missing), French (2 to review: English changed)": the version's own
 * language and those it is translated into, with what each still misses, else what it has to review.
 */
function languagesText(assessment: AssessmentContent, t: AdminTranslate): string {
  const texts = translatableTexts(assessment);
  const present = languagesPresent(assessment.translations, texts).map(({ language, missing }) => {
    const outdated = assessment.outdatedTranslations?.[language]?.length ?? 0;
    const values = { language: languageName(language), missing, outdated, total: texts.length };
    if (missing) return t('assessments.view.languageMissing', values);
    return outdated ? t('assessments.view.languageOutdated', values) : languageName(language);
  });
  return present.length ? [languageName('en'), ...present].join(', ') : t('assessments.view.englishOnly');
}

/** Read mode: the assessment as it stands, section by section, with its answer key. */
export function AssessmentView({ assessment }: { assessment: AssessmentContent }) {
  const t = useAdminT();
  let number = 0;
  const inSection = (id: number) => assessment.questions.filter((q) => q.section === id);
  const given = assessment.sections.reduce(
    (sum, s) => sum + questionsGiven(s.draw, inSection(s.id).length),
    0,
  );
  return (
    <div className="stack">
      <Card title={t('assessments.basicSettings.title')}>
        <dl className="settings-list">
          <div>
            <dt>{t('assessments.basicSettings.titleField')}</dt>
            <dd>{assessment.title}</dd>
          </div>
          <div>
            <dt>{t('assessments.basicSettings.description')}</dt>
            <dd>{assessment.description || '—'}</dd>
          </div>
          <div>
            <dt>{t('assessments.view.timeLimit')}</dt>
            <dd>{t('assessments.view.minutes', { minutes: assessment.timeLimit })}</dd>
          </div>
          <div>
            <dt>{t('assessments.view.passingScore')}</dt>
            <dd>{assessment.passingScore}%</dd>
          </div>
          <div>
            <dt>{t('assessments.view.questions')}</dt>
            <dd>{assessment.questions.length}</dd>
          </div>
          {given < assessment.questions.length && (
            <div>
              <dt>{t('assessments.view.questionsPerStudent')}</dt>
              <dd>{given}</dd>
            </div>
          )}
          <div>
            <dt>{t('assessments.view.languages')}</dt>
            <dd>{languagesText(assessment, t)}</dd>
          </div>
          <div>
            <dt>{t('assessments.view.questionOrder')}</dt>
            <dd>
              {assessment.shuffleQuestions
                ? t('assessments.view.questionsShuffled')
                : t('assessments.view.asListed')}
            </dd>
          </div>
          <div>
            <dt>{t('assessments.view.optionOrder')}</dt>
            <dd>
              {assessment.shuffleOptions
                ? t('assessments.view.optionsShuffled')
                : t('assessments.view.asListed')}
            </dd>
          </div>
        </dl>
      </Card>
      {assessment.practiceQuestion && <PracticeView practice={assessment.practiceQuestion} />}
      <Card title={t('assessments.view.sectionsAndQuestions')}>
        <div className="stack">
          {assessment.sections.map((section) => {
            const questions = inSection(section.id);
            const drawn = questionsGiven(section.draw, questions.length);
            return (
              <section
                key={section.id}
                className="section-view"
                aria-labelledby={`section-${section.id}-title`}
              >
                <h3 id={`section-${section.id}-title`} className="section-view__title">
                  {t('assessments.sections.option', { id: section.id, title: section.title })}
                </h3>
                {section.description && <p className="muted">{section.description}</p>}
                {drawn < questions.length && (
                  <p className="muted">{t('assessments.view.drawn', { drawn, total: questions.length })}</p>
                )}
                {questions.length === 0 ? (
                  <p className="muted">{t('assessments.view.noQuestions')}</p>
                ) : (
                  <ol className="question-list">
                    {questions.map((q) => {
                      number += 1;
                      return <QuestionView key={q.id} question={q} number={number} />;
                    })}
                  </ol>
                )}
              </section>
            );
          })}
        </div>
      </Card>
    </div>
  );
}
