import type { Translate } from '../../../i18n/i18n';
import type { Language } from '../../../i18n/languages';
import { fetchServerLink, typedFetch, uploadWithProgress } from '../../../lib/api-fetch';
import type { ApiAnswer } from '../../../lib/api-types';
import { messageInBody, saveBlob } from '../../../lib/save-file';
import type { QuestionFile, UploadedFile } from './types';

/** SPEC §5: what the file input accepts, one file per question. */
export const ACCEPTED_EXTENSIONS = ['pdf', 'doc', 'docx', 'txt', 'jpg', 'jpeg', 'png'];
export const ACCEPT_ATTRIBUTE = ACCEPTED_EXTENSIONS.map((ext) => `.${ext}`).join(',');

export const hasAcceptedExtension = (name: string) =>
  ACCEPTED_EXTENSIONS.includes(name.split('.').pop()?.toLowerCase() ?? '');

/**
 * A refused or failed upload: the server's code and message when it answered with them (400 file_type, 413
 * file_too_large), else neither. The page words it (`uploadErrorText`).
 */
export class UploadError extends Error {
  constructor(
    readonly serverMessage?: string,
    readonly code?: string,
  ) {
    super(serverMessage ?? 'File upload failed');
  }
}

/**
 * What a failed upload says: the server's own words in English (the SPEC's file type message, or the size limit
 * it names), and in another language the catalogue's for its code, or that the upload failed.
 */
export function uploadErrorText(t: Translate, language: Language, error: UploadError): string {
  if (error.code === 'file_type') return t('upload.fileType');
  if (language === 'en' && error.serverMessage) return error.serverMessage;
  if (error.code === 'file_too_large') return t('upload.tooLarge');
  return t('upload.failed');
}

function refusal(text: string): UploadError {
  try {
    const body = JSON.parse(text) as { code?: unknown };
    return new UploadError(messageInBody(text), typeof body.code === 'string' ? body.code : undefined);
  } catch {
    return new UploadError();
  }
}

interface UploadArgs {
  token: string;
  attemptId: string;
  questionId: string;
  file: File;
  onProgress: (percent: number) => void;
}

/**
 * Uploads a file answer as soon as it is chosen (`POST …/files`), so the final submit stays small. It
 * goes through XMLHttpRequest because only XHR reports upload progress.
 */
export async function uploadAnswerFile({
  token,
  attemptId,
  questionId,
  file,
  onProgress,
}: UploadArgs): Promise<UploadedFile> {
  const form = new FormData();
  form.append('attemptId', attemptId);
  form.append('questionId', questionId);
  form.append('file', file);
  const { status, text } = await uploadWithProgress('/api/student/{token}/files', 'post', {
    path: { token },
    form,
    onProgress,
  }).catch(() => {
    throw new UploadError();
  });
  if (status < 200 || status >= 300) throw refusal(text);
  let uploaded: UploadedFile;
  try {
    uploaded = (JSON.parse(text) as ApiAnswer<'/api/student/{token}/files', 'post', 201>).file;
  } catch {
    throw new UploadError();
  }
  onProgress(100);
  return uploaded;
}

export async function removeAnswerFile(token: string, questionId: string): Promise<void> {
  const response = await typedFetch('/api/student/{token}/files/{questionId}', 'delete', {
    path: { token, questionId },
  });
  if (!response.ok) throw refusal(await response.text());
}

/** SPEC §7: a question's file is fetched from its url and saved under its original name. */
export async function downloadQuestionFile(file: QuestionFile): Promise<void> {
  const response = await fetchServerLink(file.url);
  if (!response.ok) throw new Error(`Download failed (${response.status})`);
  saveBlob(await response.blob(), file.originalName);
}
