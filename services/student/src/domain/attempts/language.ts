import type { Language } from '@readiness/contracts';
import { setLanguage } from '../../data-access/attempts-repository';
import { tokenHash } from '../tokens';
import type { AttemptsContext } from './context';
import { invalidLink, expiredUnstarted } from './invitation-link';

/**
 * The language a student reads the pages in: the attempt's while one runs (it is the one they switched
 * to), else the one kept for the student (an administrator's choice at invitation or the student's last switch),
 * else what the browser asks for (Accept-Language, negotiated by the caller), else English.
 */
export const pageLanguage = (
  attempt: { language: Language | null } | null,
  student: { language: Language | null },
  browser: Language | null,
): Language => attempt?.language ?? student.language ?? browser ?? 'en';

/**
 * The student's switch: kept with the student and their attempt in progress; answers, the clock and the paper are
 * untouched. A link that does not open the flow (unknown, or an expired invitation never started) changes nothing.
 */
export async function switchLanguage(ctx: AttemptsContext, token: string, language: Language) {
  const hash = tokenHash(token);
  // The link is checked on what the write returns, inside its transaction: an expired one rolls back.
  const student = await ctx.database.transaction(async (tx) => {
    const updated = await setLanguage(tx, hash, language);
    if (!updated || expiredUnstarted(updated)) throw invalidLink();
    return updated;
  });
  return { language: student.language ?? language };
}
