import type { Logger } from '@readiness/kit/logger';
import { operationsFor } from '@readiness/kit/openapi';
import type { Attempts } from '../../domain/attempts';
import type { StudentExports } from '../../domain/exports';
import type { Students } from '../../domain/students';
import type { WaitingRoom } from '../../domain/waiting-room';

/** What the student service's handlers are given: its use cases and the limits of what they read. */
export interface StudentApiDeps {
  students: Students;
  attempts: Attempts;
  /** Subject-access exports of a student's data. */
  exports: StudentExports;
  /** The line to start at the peak. */
  waitingRoom: WaitingRoom;
  logger: Logger;
  importMaxBytes: number;
  importMaxRows: number;
  uploadMaxBytes: number;
  /** Where uploads are streamed to while they are checked and stored. */
  spoolDir: string;
}

/** The tags the service's operations are grouped by in the document, one for each audience. */
export const TAGS = {
  students: { name: 'Students', description: 'Invited students and their invitation links' },
  flow: {
    name: 'Student flow',
    description: 'The student flow by invitation token: attempts, autosave, files, submit',
  },
  live: {
    name: 'Live attempts',
    description: 'Attempts in progress, and what an administrator may do to one while it runs',
  },
  retention: {
    name: 'Data retention',
    description: 'Erasing students whose last activity is older than N months: the setting and its dry run',
  },
} as const;

/** The declaring function of every student operation, whatever its audience. */
export const operation = operationsFor<StudentApiDeps>();
