import { every } from '@readiness/kit/runtime';
import type { Students } from '../../domain/students';

/**
 * Erases the students the data retention setting says are due (nobody while it is off). Every replica runs it; each
 * student is locked and checked again before their erasure, so each is erased once
 * (domain/retention/erase-due-students.ts).
 */
export const retentionJob = (students: Students, intervalMs: number) =>
  every('student-retention', intervalMs, () => students.eraseDueStudents());
