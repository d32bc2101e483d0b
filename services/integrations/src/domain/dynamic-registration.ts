import { AppError } from '@readiness/kit/errors';
import type { PlatformRecord } from '../data-access/platforms-repository';
import {
  insertRegistrationLink,
  noteRegisteredPlatform,
  registrationLinkPending,
  takeRegistrationLink,
} from '../data-access/registration-links-repository';
import { reachableUrl, toolUrls, type IntegrationsDeps } from './context';
import { registerPlatform } from './manage-platforms';
import { bindingHash, secureRandom } from './start-login';

/** How long a registration link may wait to be opened by the LMS. */
export const REGISTRATION_LINK_MINUTES = 60;
export const REGISTRATION_REFUSED_TITLE = 'Registration refused';

const PLATFORM_CONFIGURATION = 'https://purl.imsglobal.org/spec/lti-platform-configuration';
const TOOL_CONFIGURATION = 'https://purl.imsglobal.org/spec/lti-tool-configuration';
const ANSWER_LIMIT = 64 * 1024;

const refused = (status: number, code: string, message: string) => new AppError(code, message, status);

/**
 * A one-time link for LTI Dynamic Registration, made by a super admin: the LMS admin pastes it into the LMS (Moodle's
 * "Tool URL", Canvas's "LTI Registration URL"), which opens it with its OpenID configuration. Only its hash is kept.
 */
export async function createRegistrationLink(
  deps: IntegrationsDeps,
  actorId: string,
): Promise<{ url: string; expiresAt: Date }> {
  const secret = secureRandom();
  const expiresAt = new Date(Date.now() + REGISTRATION_LINK_MINUTES * 60_000);
  await insertRegistrationLink(deps.database.db, {
    secretHash: bindingHash(secret),
    createdBy: actorId,
    expiresAt,
  });
  const url = new URL('/api/lti/register', deps.publicOrigin);
  url.searchParams.set('link', secret);
  return { url: url.toString(), expiresAt };
}

/** JSON from an LMS: a reachable URL, no redirects, a deadline, a size limit. */
async function lmsJson(
  deps: IntegrationsDeps,
  url: URL,
  what: string,
  init: RequestInit = {},
): Promise<Record<string, unknown>> {
  if (!reachableUrl(deps, url))
    throw refused(400, 'invalid_registration', `The LMS's ${what} is not an https URL.`);
  let text: string;
  let status: number;
  try {
    const res = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(10_000) });
    status = res.status;
    text = await res.text();
  } catch {
    throw refused(502, 'lms_unreachable', `The LMS's ${what} did not answer. Try again from the LMS.`);
  }
  if (status < 200 || status >= 300 || text.length > ANSWER_LIMIT) {
    throw refused(502, 'lms_refused', `The LMS's ${what} answered ${status}. Try again from the LMS.`);
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // below
  }
  throw refused(502, 'lms_refused', `The LMS's ${what} is not JSON.`);
}

const text = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value : undefined);

/** The registration request (the OpenID Connect client metadata with LTI's tool configuration) Readiness sends. */
export function toolRegistration(publicOrigin: string) {
  const urls = toolUrls(publicOrigin);
  return {
    application_type: 'web',
    response_types: ['id_token'],
    grant_types: ['implicit', 'client_credentials'],
    initiate_login_uri: urls.loginUrl,
    redirect_uris: [urls.launchUrl],
    client_name: 'Readiness',
    jwks_uri: urls.jwksUrl,
    token_endpoint_auth_method: 'private_key_jwt',
    scope: 'https://purl.imsglobal.org/spec/lti-ags/scope/score',
    [TOOL_CONFIGURATION]: {
      domain: new URL(publicOrigin).host,
      target_link_uri: urls.launchUrl,
      claims: ['iss', 'sub', 'name', 'given_name', 'family_name', 'email'],
      messages: [
        { type: 'LtiResourceLinkRequest' },
        { type: 'LtiDeepLinkingRequest', target_link_uri: urls.launchUrl, label: 'Readiness assessment' },
      ],
    },
  };
}

/**
 * LTI Dynamic Registration 1.0, the tool's side: with a one-time link a super admin made, the LMS's OpenID
 * configuration is read (from the LMS's issuer, its registration endpoint on the same site), Readiness registers
 * itself there with the LMS's registration token, and the LMS connection is kept from both answers, audited as the
 * link's maker. The link is taken only once all this went well: a failure leaves it for another try.
 */
export async function registerDynamically(
  deps: IntegrationsDeps,
  request: { link: string; openidConfiguration: string; registrationToken?: string },
): Promise<PlatformRecord> {
  const linkHash = bindingHash(request.link);
  const linkExpired = () =>
    refused(400, 'link_expired', 'This registration link has expired or was used already. Make a new one.');
  // Nothing is fetched for a request without a link a super admin made: the link is what lets an LMS be reached.
  if (!(await registrationLinkPending(deps.database.db, linkHash))) throw linkExpired();
  let configUrl: URL;
  try {
    configUrl = new URL(request.openidConfiguration);
  } catch {
    throw refused(400, 'invalid_registration', 'The LMS sent no OpenID configuration address.');
  }
  const config = await lmsJson(deps, configUrl, 'OpenID configuration');
  const issuer = text(config.issuer);
  const registrationEndpoint = text(config.registration_endpoint);
  const fields = {
    authUrl: text(config.authorization_endpoint),
    jwksUrl: text(config.jwks_uri),
    tokenUrl: text(config.token_endpoint),
  };
  const platformConfiguration = config[PLATFORM_CONFIGURATION] as Record<string, unknown> | undefined;
  if (
    !issuer ||
    !registrationEndpoint ||
    !fields.authUrl ||
    !fields.jwksUrl ||
    !fields.tokenUrl ||
    !platformConfiguration
  ) {
    throw refused(400, 'invalid_registration', 'The LMS’s OpenID configuration lacks what LTI 1.3 needs.');
  }
  // The configuration is the issuer's own, and the registration goes to the issuer's site: a link cannot make
  // Readiness register at, or trust, a site of someone else's choosing.
  if (
    !configUrl.toString().startsWith(issuer.replace(/\/+$/, '')) ||
    new URL(registrationEndpoint).origin !== configUrl.origin
  ) {
    throw refused(
      400,
      'invalid_registration',
      'The LMS’s OpenID configuration names another site than the LMS.',
    );
  }
  const answer = await lmsJson(deps, new URL(registrationEndpoint), 'registration endpoint', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(request.registrationToken ? { authorization: `Bearer ${request.registrationToken}` } : {}),
    },
    body: JSON.stringify(toolRegistration(deps.publicOrigin)),
  });
  const clientId = text(answer.client_id);
  const deploymentId = text(
    (answer[TOOL_CONFIGURATION] as Record<string, unknown> | undefined)?.deployment_id,
  );
  if (!clientId) throw refused(502, 'lms_refused', 'The LMS registered Readiness without a client ID.');
  if (!deploymentId) {
    throw refused(
      400,
      'no_deployment',
      'The LMS gave no deployment ID: add the connection by hand on the LMS connections screen with the one it shows.',
    );
  }
  const taken = await takeRegistrationLink(deps.database.db, linkHash);
  if (!taken) throw linkExpired();
  const family = text(platformConfiguration.product_family_code) ?? 'LMS';
  const platform = await registerPlatform(
    deps,
    {
      name: `${family[0]!.toUpperCase()}${family.slice(1)} (${new URL(issuer).host})`.slice(0, 120),
      issuer,
      clientId,
      deploymentIds: [deploymentId],
      authUrl: fields.authUrl,
      jwksUrl: fields.jwksUrl,
      tokenUrl: fields.tokenUrl,
      disabled: false,
    },
    taken.createdBy,
  );
  await noteRegisteredPlatform(deps.database.db, linkHash, platform.id);
  return platform;
}
