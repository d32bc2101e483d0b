import { useState } from 'react';
import { Download } from 'lucide-react';
import { Badge, Card } from '../../../components/ui';
import { notifyFailure } from '../../../lib/toast';
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

function answerText(question: Pick<Question, 'type' | 'options' | 'correctAnswer'>): string {
  if (question.type === 'file_upload') return 'No correct answer (file upload)';
  if (question.type === 'yes_no') return question.correctAnswer === 'no' ? 'No' : 'Yes';
  return question.options?.find((o) => o.id === question.correctAnswer)?.text ?? '—';
}

function FileDownload({ file }: { file: DownloadableFile }) {
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      await downloadAssessmentFile(file);
    } catch (err) {
      notifyFailure(
        err instanceof TransferError && err.serverMessage ? { data: { message: err.serverMessage } } : err,
        'Download failed. Please try again.',
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <QuestionFileChip
      file={file}
      label="Download"
      Icon={Download}
      loading={busy}
      aria-label={`Download ${file.originalName}`}
      onClick={download}
    />
  );
}

function QuestionView({ question, number }: { question: Question; number: number }) {
  return (
    <li className="question-view">
      <div className="question-view__head">
        <span className="question-view__number">Q{number}</span>
        <p className="question-view__text">{question.question}</p>
      </div>
      <div className="question-view__meta">
        <Badge tone="info">{typeLabel(question.type)}</Badge>
        <Badge tone="neutral">
          {question.points} {question.points === 1 ? 'point' : 'points'}
        </Badge>
        <Badge tone={question.required ? 'warning' : 'neutral'}>
          {question.required ? 'Required' : 'Optional'}
        </Badge>
      </div>
      {question.type === 'multiple_choice' && (
        <ul className="question-view__options" aria-label={`Options of question ${number}`}>
          {(question.options ?? []).map((o) => (
            <li key={o.id} className={o.id === question.correctAnswer ? 'is-correct' : undefined}>
              {o.text}
              {o.id === question.correctAnswer && <span className="visually-hidden"> (correct answer)</span>}
            </li>
          ))}
        </ul>
      )}
      {question.type === 'file_upload' && question.fileInstructions && (
        <p className="muted">{question.fileInstructions}</p>
      )}
      <p className="question-view__answer">
        <span className="muted">Correct answer: </span>
        {answerText(question)}
      </p>
      {question.hasDownloadableFile && question.downloadableFile && (
        <FileDownload file={question.downloadableFile} />
      )}
    </li>
  );
}

/** The practice question the welcome page offers before Start, with its answer. */
function PracticeView({ practice }: { practice: PracticeQuestion }) {
  return (
    <Card title="Practice question (not scored)">
      <div className="question-view">
        <p className="question-view__text">{practice.question}</p>
        <div className="question-view__meta">
          <Badge tone="info">{typeLabel(practice.type)}</Badge>
        </div>
        {practice.type === 'multiple_choice' && (
          <ul className="question-view__options" aria-label="Options of the practice question">
            {practice.options.map((o) => (
              <li key={o.id} className={o.id === practice.correctAnswer ? 'is-correct' : undefined}>
                {o.text}
                {o.id === practice.correctAnswer && (
                  <span className="visually-hidden"> (correct answer)</span>
                )}
              </li>
            ))}
          </ul>
        )}
        <p className="question-view__answer">
          <span className="muted">Correct answer: </span>
          {answerText(practice)}
        </p>
      </div>
    </Card>
  );
}

/** "English, Spanish, Arabic (3 of 24 texts missing)": the version's own language and those it is translated into. */
function languagesText(assessment: AssessmentContent): string {
  const texts = translatableTexts(assessment);
  const present = languagesPresent(assessment.translations, texts).map(({ language, missing }) =>
    missing
      ? `${languageName(language)} (${missing} of ${texts.length} texts missing)`
      : languageName(language),
  );
  return present.length ? ['English', ...present].join(', ') : 'English only';
}

/** Read mode: the assessment as it stands, section by section, with its answer key. */
export function AssessmentView({ assessment }: { assessment: AssessmentContent }) {
  let number = 0;
  const inSection = (id: number) => assessment.questions.filter((q) => q.section === id);
  const given = assessment.sections.reduce(
    (sum, s) => sum + questionsGiven(s.draw, inSection(s.id).length),
    0,
  );
  return (
    <div className="stack">
      <Card title="Basic Settings">
        <dl className="settings-list">
          <div>
            <dt>Title</dt>
            <dd>{assessment.title}</dd>
          </div>
          <div>
            <dt>Description</dt>
            <dd>{assessment.description || '—'}</dd>
          </div>
          <div>
            <dt>Time limit</dt>
            <dd>{assessment.timeLimit} minutes</dd>
          </div>
          <div>
            <dt>Passing score</dt>
            <dd>{assessment.passingScore}%</dd>
          </div>
          <div>
            <dt>Questions</dt>
            <dd>{assessment.questions.length}</dd>
          </div>
          {given < assessment.questions.length && (
            <div>
              <dt>Questions per student</dt>
              <dd>{given}</dd>
            </div>
          )}
          <div>
            <dt>Languages</dt>
            <dd>{languagesText(assessment)}</dd>
          </div>
          <div>
            <dt>Question order</dt>
            <dd>{assessment.shuffleQuestions ? 'Questions shuffled within sections' : 'As listed'}</dd>
          </div>
          <div>
            <dt>Option order</dt>
            <dd>{assessment.shuffleOptions ? 'Options shuffled' : 'As listed'}</dd>
          </div>
        </dl>
      </Card>
      {assessment.practiceQuestion && <PracticeView practice={assessment.practiceQuestion} />}
      <Card title="Sections and Questions">
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
                  Section {section.id}: {section.title}
                </h3>
                {section.description && <p className="muted">{section.description}</p>}
                {drawn < questions.length && (
                  <p className="muted">
                    {drawn} of {questions.length} questions per student
                  </p>
                )}
                {questions.length === 0 ? (
                  <p className="muted">No questions in this section.</p>
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
