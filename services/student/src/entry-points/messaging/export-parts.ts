import { on } from '@readiness/kit/runtime';
import type { StudentExports } from '../../domain/exports';

/** Keeps each service's part of a subject-access export, once (a redelivered part changes nothing). */
export const exportPartsConsumer = (exports: StudentExports) =>
  on('student.export-answered', {
    handle: (e, meta) => exports.receivePart(meta.name, e),
  });
