import { fetchServerLink, typedFetch } from '../../../lib/api-fetch';
import type { ApiAnswer } from '../../../lib/api-types';
import { saveBlob } from '../../../lib/save-file';

/**
 * Saves a passed student's certificate from the signed, short-lived link their result carries
 * (`certificateUrl`, issued by the report service). The link is its own proof: no token of any kind
 * is sent with it. The file is named after the student (`GET /api/student/{token}`), as the admin
 * download names it: `certificate-{name}-{email}.pdf`.
 */
export async function downloadCertificate(token: string, certificateUrl: string): Promise<void> {
  // The link names the site's public origin, but the student may have opened the site under another of its names
  // (`make start` answers at 127.0.0.1 and at localhost): it is asked of the origin the page came from.
  const [who, pdf] = await Promise.all([
    typedFetch('/api/student/{token}', 'get', { path: { token } }),
    fetchServerLink(certificateUrl),
  ]);
  if (!who.ok || !pdf.ok) throw new Error(`certificate download failed (${who.status}, ${pdf.status})`);
  const { student } = (await who.json()) as ApiAnswer<'/api/student/{token}', 'get'>;
  saveBlob(await pdf.blob(), `certificate-${student.name}-${student.email}.pdf`);
}
