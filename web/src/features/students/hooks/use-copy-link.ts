import { useEffect, useRef, useState } from 'react';
import { notify } from '../../../lib/toast';
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
      notify.success('Assessment URL copied to clipboard');
      setCopiedId(student._id);
      clearTimeout(copiedTimer.current);
      copiedTimer.current = setTimeout(() => setCopiedId(null), COPIED_MS);
    } catch {
      notify.error('Failed to copy URL');
    }
  };
  return { copiedId, copyUrl };
}
