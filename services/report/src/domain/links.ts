import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed, expiring links to a certificate PDF that need no admin token:
 * `{origin}/api/certificates/{code}/pdf?expires={unix seconds}&signature={HMAC-SHA256}`.
 */
export function createLinkSigner(key: Buffer, publicOrigin: string) {
  const origin = publicOrigin.replace(/\/+$/, '');
  const signature = (code: string, expires: number) =>
    createHmac('sha256', key).update(`certificate-pdf\n${code}\n${expires}`).digest('base64url');
  return {
    verificationUrl: (code: string) => `${origin}/verify/${encodeURIComponent(code)}`,
    downloadUrl(code: string, expiresAt: Date): string {
      const expires = Math.floor(expiresAt.getTime() / 1000);
      const query = new URLSearchParams({ expires: String(expires), signature: signature(code, expires) });
      return `${origin}/api/certificates/${encodeURIComponent(code)}/pdf?${query}`;
    },
    /** True when the signature is this service's for this code and the link has not expired. */
    valid(code: string, expires: number, given: string, now = new Date()): boolean {
      if (!Number.isSafeInteger(expires) || expires * 1000 < now.getTime()) return false;
      const expected = Buffer.from(signature(code, expires));
      const actual = Buffer.from(given);
      return actual.length === expected.length && timingSafeEqual(actual, expected);
    },
  };
}

export type LinkSigner = ReturnType<typeof createLinkSigner>;
