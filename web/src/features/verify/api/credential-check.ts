import { typedFetch } from '../../../lib/api-fetch';
import type { ApiAnswer } from '../../../lib/api-types';

/** What POST /api/verify/credential answers: genuine (with what the certificate shows), revoked or altered. */
export type CredentialCheck = ApiAnswer<'/api/verify/credential', 'post'>;

/** Asks the report service whether a pasted credential is genuine; no token of any kind is sent. */
export async function checkCredential(credential: string): Promise<CredentialCheck> {
  const response = await typedFetch('/api/verify/credential', 'post', { body: { credential } });
  if (!response.ok) throw new Error(`credential check failed (${response.status})`);
  return (await response.json()) as CredentialCheck;
}
