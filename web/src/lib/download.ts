/** Hands a fetched file (as an object URL) to the browser to save under `fileName`, then frees it. */
export function saveObjectUrl(objectUrl: string, fileName: string): void {
  const link = document.createElement('a');
  link.href = objectUrl;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(objectUrl);
}
