import { useEffect, useRef, useState } from 'react';
import { notify } from '../../../lib/toast';
import { adminT } from '../../../i18n/admin/admin-i18n';
import type { Student } from '../api/types';

const COPIED_MS = 2000;

/** Copies a student's assessment link; the student whose link was copied is marked for two seconds. */
export function useCopyLink() {
  const [copiedId, setCopiedId] = useState<string | null>(null);
  const copiedTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(copiedTimer.current), []);

  const copyUrl = async (student: Student) => {
    try {
      await navigator.clipboard.writeText(student.inviteUrl);
      notify.success(adminT('students.copy.copied'));
      setCopiedId(student._id);
      clearTimeout(copiedTimer.current);
      copiedTimer.current = setTimeout(() => setCopiedId(null), COPIED_MS);
    } catch {
      notify.error(adminT('students.copy.failed'));
    }
  };
  return { copiedId, copyUrl };
}
