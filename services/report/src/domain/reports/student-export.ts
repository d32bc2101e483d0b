import type { Tx } from '@readiness/kit/db';
import type { StudentExportFile } from '@readiness/kit/runtime';
import { studentRows } from '../../data-access/student-export-repository';
import type { ReportsDeps } from './context';
import { certificateCredential } from './credentials';

/**
 * The report service's part of a student's subject-access export: its copy of their results, their certificates
 * with each issued one's PDF (copied from the bucket) and its Open Badges credential, signed as it is served.
 */
export async function studentExportFiles(
  deps: ReportsDeps,
  tx: Tx,
  studentId: string,
): Promise<StudentExportFile[]> {
  const { results, certificates } = await studentRows(tx, studentId);
  const issued = certificates.filter((c) => c.status === 'issued');
  const credentials = await Promise.all(issued.map((c) => certificateCredential(deps, c.code)));
  return [
    {
      path: 'results.json',
      description:
        "The report service's copy of each result, from which the reports and certificates are made.",
      data: results,
    },
    {
      path: 'certificates.json',
      description: 'Each certificate: its verification code, when it was awarded and issued.',
      data: certificates.map(({ object_key: _key, ...c }) => c),
    },
    ...issued.map((c) => ({
      path: `certificates/${c.code}.pdf`,
      description: `The certificate ${c.code} as it was mailed (PDF).`,
      objectKey: c.object_key,
    })),
    {
      path: 'open-badges.json',
      description:
        'Each certificate as an Open Badges 3.0 credential (a signed VC-JWT), as the completion and verification pages hand it out.',
      data: credentials.map(({ code, token }) => ({ code, credential: token })),
    },
  ];
}
