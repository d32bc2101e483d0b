import { createHash, randomBytes } from 'node:crypto';
import { AppError } from '@readiness/kit/errors';
import { insertLogin } from '../data-access/launches-repository';
import { platformsOfIssuer } from '../data-access/platforms-repository';
import { toolUrls, type IntegrationsDeps } from './context';

/** A third-party login initiation, as the LMS sends it (query or form). */
export interface LoginRequest {
  iss: string;
  login_hint: string;
  target_link_uri: string;
  client_id?: string;
  lti_deployment_id?: string;
  lti_message_hint?: string;
}

const refused = (status: number, code: string, message: string) => new AppError(code, message, status);

export const secureRandom = () => randomBytes(32).toString('base64url');
export const bindingHash = (binding: string) => createHash('sha256').update(binding, 'utf8').digest();

/** The cookie that ties a state to the browser that started the login; its value is known to that browser only. */
export const stateCookieName = (state: string) => `lti-state-${state}`;

const sameOrigin = (url: string, origin: string) => {
  try {
    return new URL(url).origin === new URL(origin).origin;
  } catch {
    return false;
  }
};

/**
 * Step one of an LTI 1.3 launch (OpenID Connect third-party login): the registration the LMS names, a state and a
 * nonce kept for a few minutes, the browser's binding for the cookie, and where to send the browser (the LMS's
 * authorization endpoint). Refused, with nothing kept: an unknown or disabled LMS, an unregistered deployment, a
 * target on another site.
 */
export async function startLogin(
  deps: IntegrationsDeps,
  request: LoginRequest,
): Promise<{ redirectTo: string; state: string; binding: string; maxAgeSeconds: number }> {
  const candidates = await platformsOfIssuer(deps.database.db, request.iss, request.client_id);
  if (candidates.length !== 1) {
    throw refused(
      400,
      'unknown_platform',
      'This LMS is not connected to Readiness. Ask your administrator to register it.',
    );
  }
  const platform = candidates[0]!;
  if (platform.disabled) {
    throw refused(403, 'platform_disabled', 'The connection with this LMS is turned off.');
  }
  if (
    request.lti_deployment_id !== undefined &&
    !platform.deploymentIds.includes(request.lti_deployment_id)
  ) {
    throw refused(400, 'unknown_deployment', 'This deployment of the tool is not registered with Readiness.');
  }
  if (!sameOrigin(request.target_link_uri, deps.publicOrigin)) {
    throw refused(400, 'foreign_target', 'The launch leads to another site than Readiness.');
  }
  const state = secureRandom();
  const nonce = secureRandom();
  const binding = secureRandom();
  await insertLogin(deps.database.db, {
    state,
    nonce,
    platformId: platform.id,
    bindingHash: bindingHash(binding),
    targetLinkUri: request.target_link_uri,
    expiresAt: new Date(Date.now() + deps.loginTtlSeconds * 1000),
  });
  const auth = new URL(platform.authUrl);
  const params: Record<string, string | undefined> = {
    scope: 'openid',
    response_type: 'id_token',
    response_mode: 'form_post',
    prompt: 'none',
    client_id: platform.clientId,
    redirect_uri: toolUrls(deps.publicOrigin).launchUrl,
    login_hint: request.login_hint,
    lti_message_hint: request.lti_message_hint,
    state,
    nonce,
  };
  for (const [key, value] of Object.entries(params))
    if (value !== undefined) auth.searchParams.set(key, value);
  return { redirectTo: auth.toString(), state, binding, maxAgeSeconds: deps.loginTtlSeconds };
}
