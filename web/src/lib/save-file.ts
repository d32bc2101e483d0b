/** The server's `message` in an error body read as text, if it carries one. */
export function messageInBody(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { message?: unknown };
    return typeof body.message === 'string' && body.message.trim() ? body.message : undefined;
  } catch {
    return undefined;
  }
}

/** Hands a fetched file (as an object URL) to the browser to save under `name`, then frees it. */
export function saveObjectUrl(objectUrl: string, name: string): void {
  const link = document.createElement('a');
  link.href = objectUrl;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(objectUrl);
}

/** Hands a downloaded file to the browser to save under the given name. */
export function saveBlob(blob: Blob, name: string): void {
  saveObjectUrl(URL.createObjectURL(blob), name);
}
