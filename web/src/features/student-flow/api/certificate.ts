import { saveBlob } from '../../../lib/save-file';
import { studentUrl } from './student-api';

/**
 * The link names the site's public origin, but the student may have opened the site under another of its names
 * (`make start` answers at 127.0.0.1 and at localhost): asked there, the call would be cross-origin and refused.
 * The link is a path of this same site, so it is asked of the origin the page came from.
 */
function onThisOrigin(url: string): string {
  const link = new URL(url, window.location.origin);
  return new URL(`${link.pathname}${link.search}`, window.location.origin).href;
}

/**
 * Saves a passed student's certificate from the signed, short-lived link their result carries
 * (`certificateUrl`, issued by the report service). The link is its own proof: no token of any kind
 * is sent with it. The file is named after the student (`GET /api/student/{token}`), as the admin
 * download names it: `certificate-{name}-{email}.pdf`.
 */
export async function downloadCertificate(token: string, certificateUrl: string): Promise<void> {
  const [who, pdf] = await Promise.all([fetch(studentUrl(token)), fetch(onThisOrigin(certificateUrl))]);
  if (!who.ok || !pdf.ok) throw new Error(`certificate download failed (${who.status}, ${pdf.status})`);
  const { student } = (await who.json()) as { student: { name: string; email: string } };
  saveBlob(await pdf.blob(), `certificate-${student.name}-${student.email}.pdf`);
}
