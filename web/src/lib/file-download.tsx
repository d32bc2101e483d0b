import type { FetchArgs } from '@reduxjs/toolkit/query';
import { Download } from 'lucide-react';
import { Button } from '../components/ui';
import { api } from './api';
import { serverLink } from './api-request';
import { saveObjectUrl } from './save-file';
import { notifyFailure } from './toast';

/**
 * A file the server sends only to a signed-in admin: fetched through the API slice (token, renewal,
 * a 401 ending the session) and kept as an object URL, the one form of it the store can hold.
 */
const asObjectUrl = async (response: Response): Promise<unknown> =>
  response.ok ? URL.createObjectURL(await response.blob()) : response.json().catch(() => null);

const filesApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Any admin-only file: a report, a certificate, an uploaded answer, a CSV export. */
    fetchFile: build.mutation<string, FetchArgs>({
      query: (file) => ({ ...file, responseHandler: asObjectUrl }),
    }),
  }),
});

/**
 * Fetches an admin-only file with the admin's token and saves it under the given name; `busy` is
 * true while the server prepares it (a PDF takes a moment). The file is a call (`request(path, 'get', …)`) or a
 * link a server's answer carried. Failures reach the caller, who names them.
 */
export function useFileDownload() {
  const [fetchFile, { isLoading }] = filesApi.useFetchFileMutation();
  const download = async (file: FetchArgs | string, fileName: string) => {
    const objectUrl = await fetchFile(typeof file === 'string' ? serverLink(file).request : file).unwrap();
    saveObjectUrl(objectUrl, fileName);
  };
  return { download, busy: isLoading };
}

/** A list's "Export CSV": the file as the list is filtered now, named with today's date; a failure is a toast. */
export function ExportCsvButton({
  file,
  name,
  failure,
  label,
}: {
  /** The export's call, with the list's filters (`request(path, 'get', { query })`). */
  file: FetchArgs;
  /** The button's words in the page's language ('Export CSV'). */
  label: string;
  /** The file's name before `-<YYYY-MM-DD>.csv`. */
  name: string;
  failure: string;
}) {
  const csv = useFileDownload();
  const exportCsv = async () => {
    try {
      await csv.download(file, `${name}-${new Date().toISOString().slice(0, 10)}.csv`);
    } catch (err) {
      notifyFailure(err, failure, { serverMessage: false });
    }
  };
  return (
    <Button
      variant="secondary"
      icon={<Download size={18} aria-hidden="true" />}
      loading={csv.busy}
      onClick={exportCsv}
    >
      {label}
    </Button>
  );
}
