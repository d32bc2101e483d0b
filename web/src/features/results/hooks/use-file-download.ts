import { saveObjectUrl } from '../../../lib/save-file';
import { useFetchFileMutation } from '../api/results-api';

/**
 * Fetches an admin-only file with the admin's token and saves it under the given name; `busy` is
 * true while the server prepares it (a PDF takes a moment). Failures reach the caller, who names them.
 */
export function useFileDownload() {
  const [fetchFile, { isLoading }] = useFetchFileMutation();
  const download = async (path: string, fileName: string, params?: Record<string, string>) => {
    const objectUrl = await fetchFile({ path, params }).unwrap();
    saveObjectUrl(objectUrl, fileName);
  };
  return { download, busy: isLoading };
}
