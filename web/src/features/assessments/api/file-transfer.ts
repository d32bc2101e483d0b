import type { Dispatch, UnknownAction } from '@reduxjs/toolkit';
import { renewTokenIfDue } from '../../../lib/api';
import { readToken } from '../../../lib/session-token';
import { messageInBody, saveBlob } from '../../../lib/save-file';
import { adminT } from '../../../i18n/admin/admin-i18n';
import type { DownloadableFile, UploadAnswer } from './types';

const endpoint = (path: string) => new URL(`/api/assessment/${path}`, window.location.origin).href;

/** The session's token, as the transfers send it. */
function authHeaders(): Headers {
  const headers = new Headers();
  const token = readToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  return headers;
}

/** A failed transfer, with the server's message when it gave one. */
export class TransferError extends Error {
  constructor(
    readonly status: number,
    readonly serverMessage?: string,
  ) {
    super(serverMessage ?? adminT('assessments.file.transferFailed', { status }));
  }
}

/**
 * Uploads a question's downloadable file (`POST /api/assessment/upload-file`, field `file`). It goes
 * through XMLHttpRequest rather than the API slice because only XHR reports upload progress.
 */
export async function uploadAssessmentFile(
  file: File,
  dispatch: Dispatch<UnknownAction>,
  onProgress: (percent: number) => void,
): Promise<DownloadableFile> {
  await renewTokenIfDue(dispatch);
  const headers = authHeaders();
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', endpoint('upload-file'));
    headers.forEach((value, name) => xhr.setRequestHeader(name, value));
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      if (xhr.status < 200 || xhr.status >= 300) {
        reject(new TransferError(xhr.status, messageInBody(xhr.responseText)));
        return;
      }
      try {
        const { file: stored } = JSON.parse(xhr.responseText) as UploadAnswer;
        onProgress(100);
        resolve({ originalName: stored.originalName, filename: stored.filename, size: stored.size });
      } catch {
        reject(new TransferError(xhr.status));
      }
    };
    xhr.onerror = () => reject(new TransferError(0));
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
}

/** Saves a question's file under its original name (`GET /api/assessment/files/{filename}`). */
export async function downloadAssessmentFile(file: DownloadableFile): Promise<void> {
  const response = await fetch(endpoint(`files/${encodeURIComponent(file.filename)}`), {
    headers: authHeaders(),
  });
  if (!response.ok) throw new TransferError(response.status, messageInBody(await response.text()));
  saveBlob(await response.blob(), file.originalName);
}
