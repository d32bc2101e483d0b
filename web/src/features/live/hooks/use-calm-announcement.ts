import { useEffect, useState } from 'react';

/**
 * What a polite status region says about figures that change at every poll, without chattering: `text` when its
 * `state` changes (a line forms, empties, comes under pressure), else at most once every `everyMs`. The state the
 * screen opens in is shown, not announced: the region starts empty.
 */
export function useCalmAnnouncement(text: string | null, state: string | null, everyMs: number): string {
  const [said, setSaid] = useState<{ text: string; state: string | null; at: number }>({
    text: '',
    state: null,
    at: 0,
  });
  useEffect(() => {
    if (text === null || state === null) return;
    setSaid((last) => {
      const now = Date.now();
      if (last.state === null) return { text: '', state, at: now };
      if (state !== last.state || (text !== last.text && now - last.at >= everyMs))
        return { text, state, at: now };
      return last;
    });
  }, [text, state, everyMs]);
  return said.text;
}
