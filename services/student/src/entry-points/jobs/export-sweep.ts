import { every } from '@readiness/kit/runtime';
import type { StudentExports } from '../../domain/exports';

const SWEEP_MS = 15 * 60 * 1000;

/** Removes the data exports past their lifetime (STUDENT_EXPORT_TTL_HOURS); every replica may run it. */
export const exportSweepJob = (exports: StudentExports) =>
  every('student-export-sweep', SWEEP_MS, () => exports.sweep());
