import { apiUrl } from './api-request';

/**
 * Where a certificate's Open Badges 3.0 credential (a VC-JWT file) is downloaded, by its code: public, as the
 * certificate's verification is (the completion page and the verification page offer it).
 */
export const credentialLink = (code: string) =>
  apiUrl('/api/verify/{code}/credential', 'get', { path: { code } });
