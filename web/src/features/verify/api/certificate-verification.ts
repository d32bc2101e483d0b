import { useEffect, useState } from 'react';
import { typedFetch } from '../../../lib/api-fetch';
import type { ApiAnswer } from '../../../lib/api-types';

/** What GET /api/certificates/{code} answers for a certificate that stands. */
export type VerifiedCertificate = ApiAnswer<'/api/certificates/{code}', 'get'>;

export type Verification =
  | { status: 'checking' }
  | { status: 'valid'; certificate: VerifiedCertificate }
  | { status: 'unknown' }
  | { status: 'failed' };

/**
 * Checks a certificate code with the public verification call. It needs no token and shares nothing with the
 * admin session, so the public page stays free of admin code.
 */
export function useCertificateVerification(code: string, attempt: number): Verification {
  const [state, setState] = useState<Verification>({ status: 'checking' });
  useEffect(() => {
    const controller = new AbortController();
    setState({ status: 'checking' });
    typedFetch('/api/certificates/{code}', 'get', {
      path: { code },
      init: { signal: controller.signal, headers: { accept: 'application/json' } },
    })
      .then(async (response) => {
        if (response.status === 404) return setState({ status: 'unknown' });
        if (!response.ok) return setState({ status: 'failed' });
        const body = (await response.json()) as VerifiedCertificate;
        setState(body.valid ? { status: 'valid', certificate: body } : { status: 'unknown' });
      })
      .catch(() => {
        if (!controller.signal.aborted) setState({ status: 'failed' });
      });
    return () => controller.abort();
  }, [code, attempt]);
  return state;
}
