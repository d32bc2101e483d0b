import { messageInBody, saveBlob } from '../../../lib/save-file';
import { studentUrl } from './student-api';
import type { QuestionFile, UploadedFile } from './types';

/** SPEC §5: what the file input accepts, one file per question. */
export const ACCEPTED_EXTENSIONS = ['pdf', 'doc', 'docx', 'txt', 'jpg', 'jpeg', 'png'];
export const ACCEPT_ATTRIBUTE = ACCEPTED_EXTENSIONS.map((ext) => `.${ext}`).join(',');
export const FILE_TYPE_MESSAGE =
  'Only PDF, Word (doc, docx), text and image (jpg, jpeg, png) files can be uploaded';
export const UPLOAD_FAILED_MESSAGE = 'File upload failed';

export const hasAcceptedExtension = (name: string) =>
  ACCEPTED_EXTENSIONS.includes(name.split('.').pop()?.toLowerCase() ?? '');

/** A refused upload, carrying the message to show: the server's (413, 400), else a generic one. */
export class UploadError extends Error {}

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
export function uploadAnswerFile({ token, attemptId, questionId, file, onProgress }: UploadArgs) {
  return new Promise<UploadedFile>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', studentUrl(token, '/files'));
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      if (xhr.status < 200 || xhr.status >= 300) {
        reject(new UploadError(messageInBody(xhr.responseText) ?? UPLOAD_FAILED_MESSAGE));
        return;
      }
      try {
        const uploaded = (JSON.parse(xhr.responseText) as { file: UploadedFile }).file;
        onProgress(100);
        resolve(uploaded);
      } catch {
        reject(new UploadError(UPLOAD_FAILED_MESSAGE));
      }
    };
    xhr.onerror = () => reject(new UploadError(UPLOAD_FAILED_MESSAGE));
    const form = new FormData();
    form.append('attemptId', attemptId);
    form.append('questionId', questionId);
    form.append('file', file);
    xhr.send(form);
  });
}

export async function removeAnswerFile(token: string, questionId: string): Promise<void> {
  const response = await fetch(studentUrl(token, `/files/${encodeURIComponent(questionId)}`), {
    method: 'DELETE',
  });
  if (!response.ok) throw new UploadError(messageInBody(await response.text()) ?? UPLOAD_FAILED_MESSAGE);
}

/** SPEC §7: a question's file is fetched from its url and saved under its original name. */
export async function downloadQuestionFile(file: QuestionFile): Promise<void> {
  const response = await fetch(new URL(file.url, window.location.origin).href);
  if (!response.ok) throw new Error(`Download failed (${response.status})`);
  saveBlob(await response.blob(), file.originalName);
}
