import { listPlatforms } from '../data-access/platforms-repository';
import type { IntegrationsDeps } from './context';

const originOf = (url: string) => {
  try {
    const { origin } = new URL(url);
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
};

/**
 * The origins that may frame the LTI pages: those of the enabled LMS connections (their issuer and authorization
 * URL), and `more` (the verified return address of a deep-linking request, on the LMS's own host).
 */
export async function framingOrigins(
  deps: Pick<IntegrationsDeps, 'database'>,
  more: string[] = [],
): Promise<string[]> {
  const platforms = await listPlatforms(deps.database.db);
  const origins = platforms
    .filter((p) => !p.disabled)
    .flatMap((p) => [originOf(p.issuer), originOf(p.authUrl)])
    .concat(more);
  return [...new Set(origins.filter((o): o is string => o !== undefined))];
}
