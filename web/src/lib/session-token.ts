// The session token lives in localStorage under the key the spec names, so a reload keeps the session.
export const TOKEN_STORAGE_KEY = 'admin_token';

export function readToken(): string | null {
  try {
    return window.localStorage.getItem(TOKEN_STORAGE_KEY);
  } catch {
    return null;
  }
}

export function storeToken(token: string): void {
  window.localStorage.setItem(TOKEN_STORAGE_KEY, token);
}

export function clearToken(): void {
  try {
    window.localStorage.removeItem(TOKEN_STORAGE_KEY);
  } catch {
    // Storage can be unavailable (private mode); there is then nothing to remove.
  }
}

/** A time claim of a JWT (`exp`, `iat`) in epoch milliseconds, or null when the token carries none or is not a JWT. */
function tokenTime(token: string, claim: 'exp' | 'iat'): number | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
    const value = (JSON.parse(atob(padded)) as Record<string, unknown>)[claim];
    return typeof value === 'number' ? value * 1000 : null;
  } catch {
    return null;
  }
}

/** Expiry of a JWT in epoch milliseconds, or null when the token carries none or is not a JWT. */
export const tokenExpiresAt = (token: string) => tokenTime(token, 'exp');

/** How long a JWT lives from its issue, in milliseconds; null when it does not say. */
export function tokenLifetime(token: string): number | null {
  const issuedAt = tokenTime(token, 'iat');
  const expiresAt = tokenTime(token, 'exp');
  return issuedAt === null || expiresAt === null ? null : expiresAt - issuedAt;
}
