import { randomUUID } from 'node:crypto';
import { AppError } from '@readiness/kit/errors';
import { SignJWT, type JWTPayload } from 'jose';
import { insertDeepLinkRequest, takeDeepLinkRequest } from '../data-access/deep-links-repository';
import { takeLogin, type LoginRecord } from '../data-access/launches-repository';
import { findPlatform, type PlatformRecord } from '../data-access/platforms-repository';
import { reachableUrl, toolUrls, type IntegrationsDeps } from './context';
import { bindingHash, secureRandom } from './start-login';

export const DEEP_LINKING_REQUEST = 'LtiDeepLinkingRequest';
export const DEEP_LINKING_REFUSED_TITLE = 'Adding the activity refused';

const CLAIM = 'https://purl.imsglobal.org/spec/lti/claim/';
const DL_CLAIM = 'https://purl.imsglobal.org/spec/lti-dl/claim/';

/**
 * The activity's title in the LMS. The integrations service does not know the assessments (the assessment service
 * owns them, and services do not call each other), so the content item carries this name, which the instructor can
 * change in the LMS.
 */
export const ACTIVITY_TITLE = 'Readiness assessment';

/** How long the confirmation page waits for the instructor's choice. */
const CONFIRM_TTL_SECONDS = 15 * 60;

/** Who may add the activity: an instructor or an administrator of the course (context) or of the institution. */
const TEACHING_ROLES = new Set([
  'http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor',
  'http://purl.imsglobal.org/vocab/lis/v2/membership#Administrator',
  'http://purl.imsglobal.org/vocab/lis/v2/institution/person#Instructor',
  'http://purl.imsglobal.org/vocab/lis/v2/institution/person#Administrator',
]);

const refused = (status: number, code: string, message: string) => new AppError(code, message, status);
const lapsed = () =>
  refused(
    400,
    'deep_link_expired',
    'This request has expired or was used already. Add the activity from your course again.',
  );

/** What the confirmation page shows: the request's id (the form's only field) and what is added where. */
export interface DeepLinkingConfirmation {
  requestId: string;
  title: string;
  platformName: string;
  /** The LMS's return address's origin: the page may be framed by it. */
  returnOrigin: string;
}

interface DeepLinkingSettings {
  returnUrl: URL;
  data: string | null;
}

function settingsOf(deps: IntegrationsDeps, claims: JWTPayload): DeepLinkingSettings {
  const settings = claims[`${DL_CLAIM}deep_linking_settings`] as
    { deep_link_return_url?: unknown; accept_types?: unknown; data?: unknown } | undefined;
  let returnUrl: URL | undefined;
  try {
    returnUrl =
      typeof settings?.deep_link_return_url === 'string' ? new URL(settings.deep_link_return_url) : undefined;
  } catch {
    returnUrl = undefined;
  }
  if (!returnUrl || !reachableUrl(deps, returnUrl)) {
    throw refused(400, 'invalid_deep_linking', 'The LMS sent no valid address to return the activity to.');
  }
  const types = Array.isArray(settings?.accept_types) ? settings.accept_types : [];
  if (!types.includes('ltiResourceLink')) {
    throw refused(
      400,
      'unsupported_content',
      'This place in the LMS does not accept an activity (an LTI resource link). Add Readiness as an activity or assignment.',
    );
  }
  return { returnUrl, data: typeof settings?.data === 'string' ? settings.data : null };
}

/**
 * An instructor's deep-linking launch, verified like any launch (state, browser, signature, nonce, deployment):
 * the role and the settings are checked, the state is used up, and the request is kept for the confirmation under
 * an id only this browser is given.
 */
export async function beginDeepLinking(
  deps: IntegrationsDeps,
  launch: { login: LoginRecord; platform: PlatformRecord; claims: JWTPayload; deploymentId: string },
): Promise<DeepLinkingConfirmation> {
  const roles = launch.claims[`${CLAIM}roles`];
  if (!Array.isArray(roles) || !roles.some((r) => typeof r === 'string' && TEACHING_ROLES.has(r))) {
    throw refused(403, 'not_an_instructor', 'Only instructors and administrators can add this activity.');
  }
  const settings = settingsOf(deps, launch.claims);
  const requestId = secureRandom();
  await deps.database.transaction(async (tx) => {
    const fresh =
      (await takeLogin(tx, launch.login.state)) &&
      (await insertDeepLinkRequest(tx, {
        idHash: bindingHash(requestId),
        platformId: launch.platform.id,
        deploymentId: launch.deploymentId,
        returnUrl: settings.returnUrl.toString(),
        data: settings.data,
        nonce: launch.login.nonce,
        expiresAt: new Date(Date.now() + CONFIRM_TTL_SECONDS * 1000),
      }));
    if (!fresh) throw lapsed();
  });
  return {
    requestId,
    title: ACTIVITY_TITLE,
    platformName: launch.platform.name,
    returnOrigin: settings.returnUrl.origin,
  };
}

/** The signed answer and where the browser posts it (the return address of the verified request, never the form's). */
export interface DeepLinkingAnswer {
  returnUrl: string;
  jwt: string;
  platformName: string;
}

/**
 * The instructor's choice: the request is taken once, and answered with an `LtiDeepLinkingResponse` signed by the
 * tool's key, holding the activity (or nothing, when they cancelled) and the platform's `data`.
 */
export async function answerDeepLinking(
  deps: IntegrationsDeps,
  choice: { requestId: string; add: boolean },
): Promise<DeepLinkingAnswer> {
  const request = await takeDeepLinkRequest(deps.database.db, bindingHash(choice.requestId));
  if (!request) throw lapsed();
  const platform = await findPlatform(deps.database.db, request.platformId);
  if (!platform || platform.disabled) {
    throw refused(403, 'platform_disabled', 'The connection with this LMS is turned off.');
  }
  const contentItems = choice.add
    ? [
        {
          type: 'ltiResourceLink',
          title: ACTIVITY_TITLE,
          url: toolUrls(deps.publicOrigin).launchUrl,
          lineItem: { scoreMaximum: 100, label: ACTIVITY_TITLE },
        },
      ]
    : [];
  const jwt = await new SignJWT({
    nonce: randomUUID(),
    [`${CLAIM}message_type`]: 'LtiDeepLinkingResponse',
    [`${CLAIM}version`]: '1.3.0',
    [`${CLAIM}deployment_id`]: request.deploymentId,
    [`${DL_CLAIM}content_items`]: contentItems,
    ...(request.data === null ? {} : { [`${DL_CLAIM}data`]: request.data }),
  })
    .setProtectedHeader({ alg: 'RS256', kid: deps.toolKeys.kid, typ: 'JWT' })
    .setIssuer(platform.clientId)
    .setAudience(platform.issuer)
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(deps.toolKeys.privateKey);
  return { returnUrl: request.returnUrl, jwt, platformName: platform.name };
}
