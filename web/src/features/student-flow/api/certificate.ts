import { saveBlob } from '../../../lib/save-file';
import { studentUrl } from './student-api';

/** SPEC §8: the one message a failed certificate download shows. */
export const CERTIFICATE_FAILED_MESSAGE = 'Failed to download certificate';

/**
 * Saves a passed student's certificate from the signed, short-lived link their result carries
 * (`certificateUrl`, issued by the report service). The link is its own proof: no token of any kind
 * is sent with it. The file is named after the student (`GET /api/student/{token}`), as the admin
 * download names it: `certificate-{name}-{email}.pdf`.
 */
export async function downloadCertificate(token: string, certificateUrl: string): Promise<void> {
  const [who, pdf] = await Promise.all([fetch(studentUrl(token)), fetch(certificateUrl)]);
  if (!who.ok || !pdf.ok) throw new Error(`certificate download failed (${who.status}, ${pdf.status})`);
  const { student } = (await who.json()) as { student: { name: string; email: string } };
  saveBlob(await pdf.blob(), `certificate-${student.name}-${student.email}.pdf`);
}
