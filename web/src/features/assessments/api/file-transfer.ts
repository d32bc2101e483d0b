import type { Dispatch, UnknownAction } from '@reduxjs/toolkit';
import { renewTokenIfDue } from '../../../lib/api';
import { typedFetch, uploadWithProgress } from '../../../lib/api-fetch';
import { readToken } from '../../../lib/session-token';
import { messageInBody, saveBlob } from '../../../lib/save-file';
import { adminT } from '../../../i18n/admin/admin-i18n';
import type { DownloadableFile, UploadAnswer } from './types';

/** The session's token, as the transfers send it. */
function authHeaders(): Record<string, string> {
  const headers = new Headers();
  const token = readToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  return Object.fromEntries(headers);
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
  const form = new FormData();
  form.append('file', file);
  const { status, text } = await uploadWithProgress('/api/assessment/upload-file', 'post', {
    form,
    headers,
    onProgress,
  }).catch(() => {
    throw new TransferError(0);
  });
  if (status < 200 || status >= 300) throw new TransferError(status, messageInBody(text));
  let stored: UploadAnswer['file'];
  try {
    stored = (JSON.parse(text) as UploadAnswer).file;
  } catch {
    throw new TransferError(status);
  }
  onProgress(100);
  return { originalName: stored.originalName, filename: stored.filename, size: stored.size };
}

/** Saves a question's file under its original name (`GET /api/assessment/files/{filename}`). */
export async function downloadAssessmentFile(file: DownloadableFile): Promise<void> {
  const response = await typedFetch('/api/assessment/files/{filename}', 'get', {
    path: { filename: file.filename },
    headers: authHeaders(),
  });
  if (!response.ok) throw new TransferError(response.status, messageInBody(await response.text()));
  saveBlob(await response.blob(), file.originalName);
}
