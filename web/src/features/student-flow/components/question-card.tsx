import { useId, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { Download, FileText, Upload, X } from 'lucide-react';
import { Badge, Button, FileChip } from '../../../components/ui';
import { T, useLanguage, useT } from '../../../i18n/react';
import { notify } from '../../../lib/toast';
import {
  ACCEPT_ATTRIBUTE,
  downloadQuestionFile,
  hasAcceptedExtension,
  removeAnswerFile,
  UploadError,
  uploadAnswerFile,
  uploadErrorText,
} from '../api/files';
import type { StudentQuestion, UploadedFile } from '../api/types';
import type { AssessmentContent, LocalizedFile } from '../content';
import { Choices, choicesOf } from './choices';

interface QuestionCardProps {
  number: number;
  question: StudentQuestion;
  /** The assessment's words in the page's language. */
  content: AssessmentContent;
  answer: string | undefined;
  file: UploadedFile | undefined;
  token: string;
  attemptId: string;
  disabled: boolean;
  onAnswer: (questionId: string, answer: string) => void;
  onFile: (questionId: string, file: UploadedFile | null) => void;
}

/** One numbered question of the current section (SPEC §2 test screen). */
export function QuestionCard({
  number,
  question,
  content,
  answer,
  file,
  token,
  attemptId,
  disabled,
  onAnswer,
  onFile,
}: QuestionCardProps) {
  const legendId = useId();
  const t = useT();
  const texts = content.question(question);
  const instructions = texts.fileInstructions.text ? (
    <p className="question__instructions" {...content.mark(texts.fileInstructions)}>
      {texts.fileInstructions.text}
    </p>
  ) : null;
  return (
    <fieldset
      className="question card"
      aria-labelledby={legendId}
      disabled={disabled}
      data-question-id={question.id}
    >
      <div className="question__head">
        <span className="question__number" aria-hidden="true">
          {number}
        </span>
        <p className="question__text" id={legendId}>
          <span className="visually-hidden">{t('question.label', { number })}</span>
          <bdi {...content.mark(texts.question)}>{texts.question.text}</bdi>
        </p>
        <div className="question__meta">
          {question.required && <Badge tone="danger">{t('question.required')}</Badge>}
          <span className="muted">{t('question.points', { points: question.points })}</span>
        </div>
      </div>
      {question.hasDownloadableFile && texts.downloadableFile && (
        <QuestionDownload file={texts.downloadableFile} mark={content.mark} instructions={instructions} />
      )}
      {question.type === 'file_upload' ? (
        <FileAnswer
          question={question}
          instructions={question.hasDownloadableFile ? null : instructions}
          file={file}
          token={token}
          attemptId={attemptId}
          disabled={disabled}
          onFile={onFile}
          labelledBy={legendId}
        />
      ) : (
        <Choices
          name={`answer-${question.id}`}
          choices={choicesOf(t, question.type, texts.options, content.language)}
          chosen={answer}
          onChoose={(id) => onAnswer(question.id, id)}
          mark={content.mark}
        />
      )}
    </fieldset>
  );
}

/**
 * The question's file to download, after its instructions (in the page's language): the language's own file, or
 * the English one with its name marked `lang="en"`.
 */
function QuestionDownload({
  file: { file, lang },
  mark,
  instructions,
}: {
  file: LocalizedFile;
  mark: AssessmentContent['mark'];
  instructions: ReactNode;
}) {
  const [busy, setBusy] = useState(false);
  const t = useT();
  const download = async () => {
    setBusy(true);
    try {
      await downloadQuestionFile(file);
    } catch {
      notify.error(t('question.downloadFailed'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="question__download">
      {instructions}
      <Button
        variant="secondary"
        size="sm"
        icon={<Download size={16} aria-hidden="true" />}
        loading={busy}
        onClick={() => void download()}
        aria-label={t('question.download', { name: file.originalName })}
      >
        <bdi {...mark({ text: file.originalName, lang })}>{file.originalName}</bdi>
      </Button>
    </div>
  );
}

interface FileAnswerProps {
  question: StudentQuestion;
  /** The instructions, when no file to download comes before the answer with them. */
  instructions: ReactNode;
  file: UploadedFile | undefined;
  token: string;
  attemptId: string;
  disabled: boolean;
  labelledBy: string;
  onFile: (questionId: string, file: UploadedFile | null) => void;
}

/** A file answer: chosen by click or dropped, uploaded at once with its progress; one per question. */
function FileAnswer({
  question,
  instructions,
  file,
  token,
  attemptId,
  disabled,
  labelledBy,
  onFile,
}: FileAnswerProps) {
  const inputId = useId();
  const errorId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  // Kept as what went wrong, so that its words follow a change of language.
  const [error, setError] = useState<UploadError | null>(null);
  const t = useT();
  const { language } = useLanguage();
  const [dragging, setDragging] = useState(false);

  const upload = async (chosen: File | undefined) => {
    if (!chosen || disabled || progress !== null) return;
    setError(null);
    if (!hasAcceptedExtension(chosen.name)) {
      setError(new UploadError(undefined, 'file_type'));
      return;
    }
    setProgress(0);
    try {
      const uploaded = await uploadAnswerFile({
        token,
        attemptId,
        questionId: question.id,
        file: chosen,
        onProgress: setProgress,
      });
      onFile(question.id, uploaded);
    } catch (e) {
      setError(e instanceof UploadError ? e : new UploadError());
    } finally {
      setProgress(null);
      if (input.current) input.current.value = '';
    }
  };

  const remove = async () => {
    setError(null);
    try {
      await removeAnswerFile(token, question.id);
      onFile(question.id, null);
    } catch (e) {
      setError(e instanceof UploadError ? e : new UploadError());
    }
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    void upload(event.dataTransfer.files[0]);
  };

  return (
    <div className="file-answer">
      {instructions}
      <div
        className={`dropzone${dragging ? ' dropzone--active' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <Upload size={24} aria-hidden="true" />
        <label htmlFor={inputId} className="dropzone__label">
          <T id={file ? 'upload.replace' : 'upload.choose'} components={{ 0: <span className="muted" /> }} />
        </label>
        <input
          ref={input}
          id={inputId}
          className="dropzone__input"
          type="file"
          accept={ACCEPT_ATTRIBUTE}
          aria-describedby={`${labelledBy}${error ? ` ${errorId}` : ''}`}
          onChange={(e) => void upload(e.target.files?.[0])}
        />
        <p className="muted dropzone__hint">{t('upload.hint')}</p>
      </div>
      {progress !== null && (
        <div className="file-answer__progress">
          <progress max={100} value={progress} aria-label={t('upload.progress', { percent: progress })} />
          <span aria-hidden="true">{t('percent', { percentage: progress })}</span>
        </div>
      )}
      {file && progress === null && (
        <FileChip
          file={file}
          icon={<FileText size={18} aria-hidden="true" />}
          classes={['file-answer__file', 'file-answer__name']}
          action={{
            children: t('upload.remove'),
            icon: <X size={16} aria-hidden="true" />,
            'aria-label': t('upload.removeFile', { name: file.originalName }),
            onClick: () => void remove(),
          }}
        />
      )}
      {error && (
        <p className="field__error" id={errorId} role="alert">
          {uploadErrorText(t, language, error)}
        </p>
      )}
    </div>
  );
}
