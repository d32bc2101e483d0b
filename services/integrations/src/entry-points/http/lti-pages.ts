import { randomBytes } from 'node:crypto';
import { sendErrorPage } from '@readiness/kit/http';
import type { Response } from 'express';
import type { IntegrationsDeps } from '../../domain/context';
import { framingOrigins } from '../../domain/framing-origins';

/**
 * The policy of an LTI page, which the LMS shows in its iframe: framed by the registered LMSs only (`X-Frame-Options`
 * cannot name them, so it goes and `frame-ancestors` decides), nothing loaded, a script only with this answer's
 * nonce, forms posted here unless `anyFormTarget` (the answer that goes back to the LMS, whose return address may
 * redirect within the LMS).
 */
export function setLtiPagePolicy(
  res: Response,
  ancestors: string[],
  options: { scriptNonce?: string; anyFormTarget?: boolean } = {},
) {
  const directives = [
    "default-src 'none'",
    "base-uri 'none'",
    "style-src 'unsafe-inline'",
    options.scriptNonce ? `script-src 'nonce-${options.scriptNonce}'` : "script-src 'none'",
    ...(options.anyFormTarget ? [] : ["form-action 'self'"]),
    `frame-ancestors 'self'${ancestors.map((o) => ` ${o}`).join('')}`,
  ];
  res.removeHeader('X-Frame-Options');
  res.setHeader('Content-Security-Policy', directives.join('; '));
}

export const scriptNonce = () => randomBytes(16).toString('base64');

/** An LTI refusal: a page (never JSON, never a stack) under the LTI pages' policy. */
export async function sendLtiRefusal(res: Response, err: unknown, title: string, deps: IntegrationsDeps) {
  try {
    setLtiPagePolicy(res, await framingOrigins(deps));
  } catch (policyError) {
    // Without the connections, the page keeps the default policy (framed by this site only), still readable.
    deps.logger.warn({ err: policyError }, 'the LTI page policy could not read the LMS connections');
  }
  sendErrorPage(res, err, title, (e) => deps.logger.error({ err: e }, 'an LTI request failed'));
}
