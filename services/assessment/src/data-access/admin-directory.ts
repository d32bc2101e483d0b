import type { Logger } from '@readiness/kit/logger';

/** Asks auth who the bearer of a token is (`GET /api/auth/me`), for an admin whose name no event brought yet. */
export interface AdminDirectory {
  /** The admin's name, or undefined when auth cannot say (unreachable, refused, slow). */
  nameOf(bearerToken: string): Promise<string | undefined>;
}

export function createAdminDirectory(options: {
  authUrl: string;
  logger: Logger;
  timeoutMs?: number;
}): AdminDirectory {
  const url = `${options.authUrl.replace(/\/+$/, '')}/api/auth/me`;
  return {
    async nameOf(bearerToken) {
      try {
        const res = await fetch(url, {
          headers: { authorization: `Bearer ${bearerToken}` },
          signal: AbortSignal.timeout(options.timeoutMs ?? 3000),
        });
        if (!res.ok) return undefined;
        const body = (await res.json()) as { admin?: { name?: unknown } };
        return typeof body.admin?.name === 'string' && body.admin.name ? body.admin.name : undefined;
      } catch (err) {
        options.logger.warn({ err }, 'auth could not name the admin');
        return undefined;
      }
    },
  };
}
