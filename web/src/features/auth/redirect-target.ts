import type { Location } from 'react-router-dom';

export const DEFAULT_ADMIN_PATH = '/admin/dashboard';

/**
 * The page the visitor first asked for, as remembered by the guard in the location state. Only
 * in-app admin paths are honoured, so a crafted state cannot send the user elsewhere.
 */
export function redirectTarget(state: unknown): string {
  const from = (state as { from?: Partial<Location> } | null)?.from;
  const pathname = from?.pathname;
  if (typeof pathname !== 'string' || !pathname.startsWith('/admin/') || pathname === '/admin/login') {
    return DEFAULT_ADMIN_PATH;
  }
  return `${pathname}${from?.search ?? ''}${from?.hash ?? ''}`;
}
