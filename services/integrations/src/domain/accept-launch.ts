import { randomUUID, timingSafeEqual } from 'node:crypto';
import {
  LTI_LAUNCH_TICKET_PATH,
  LTI_LAUNCH_TICKET_TTL_SECONDS,
  type LtiLaunchTicket,
} from '@readiness/contracts';
import { AppError } from '@readiness/kit/errors';
import { jwtVerify, type JWTPayload } from 'jose';
import { insertLaunch, pendingLogin, takeLogin } from '../data-access/launches-repository';
import { findPlatform } from '../data-access/platforms-repository';
import type { IntegrationsDeps } from './context';
import { beginDeepLinking, DEEP_LINKING_REQUEST, type DeepLinkingConfirmation } from './deep-linking';
import { lineItemAllowed, lineItemOf } from './grades';
import { bindingHash } from './start-login';

const CLAIM = 'https://purl.imsglobal.org/spec/lti/claim/';
const AGS_CLAIM = 'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint';
const LEARNER = /#Learner$/;
/** Instructors and administrators, of the course (membership) or of the institution, teaching assistants too. */
const TEACHING = /#(Instructor|Administrator|TeachingAssistant)$/;

export const LAUNCH_REFUSED_TITLE = 'Launch refused';

const refused = (status: number, code: string, message: string) => new AppError(code, message, status);
const expired = () =>
  refused(
    400,
    'launch_expired',
    'This launch has expired or was used already. Open the activity from your course again.',
  );

/**
 * Where a launch leads: a learner's browser on to their own page; an instructor's to the read-only page of the
 * resource link's learners; an instructor's deep-linking request to its confirmation page.
 */
export type LaunchOutcome =
  | { deepLinking: DeepLinkingConfirmation; redirectTo?: undefined; instructor?: undefined }
  | { redirectTo: string; instructor?: undefined; deepLinking?: undefined }
  | {
      instructor: { platformId: string; resourceLinkId: string; title: string };
      redirectTo?: undefined;
      deepLinking?: undefined;
    };

export interface LaunchRequest {
  idToken: string;
  state: string;
  /** The value of the browser's state cookie, when it sent one. */
  binding: string | undefined;
}

/** Whether the browser's binding is the one its login kept (compared in constant time). */
function sameBrowser(kept: Buffer, binding: string | undefined): boolean {
  if (binding === undefined) return false;
  const offered = bindingHash(binding);
  return offered.length === kept.length && timingSafeEqual(offered, kept);
}

async function verifiedClaims(
  deps: IntegrationsDeps,
  idToken: string,
  platform: { issuer: string; clientId: string; jwksUrl: string },
): Promise<JWTPayload> {
  try {
    const { payload } = await jwtVerify(idToken, deps.platformKeys(platform.jwksUrl), {
      issuer: platform.issuer,
      audience: platform.clientId,
      algorithms: ['RS256'],
      clockTolerance: deps.clockSkewSeconds,
      maxTokenAge: deps.loginTtlSeconds + deps.clockSkewSeconds,
      requiredClaims: ['exp', 'iat', 'sub', 'nonce'],
    });
    return payload;
  } catch {
    throw refused(
      401,
      'invalid_id_token',
      'The LMS’s sign-in could not be verified. Open the activity from your course again.',
    );
  }
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/**
 * Step two of an LTI 1.3 launch: the LMS posts its signed id_token back with the state. Checked in this order, and
 * refused with nothing kept at the first that fails: the state (waiting, unexpired, started in this browser), the
 * registration (still there, not disabled), the id_token (signature by the LMS's keys, issuer, audience and
 * `azp`, times), its nonce (the state's own), deployment, version and message type, and the role. A learner's
 * launch is kept (state and nonce used once, in one transaction) and answered with where the browser goes next:
 * the student service, with a sealed ticket naming the person.
 */
export async function acceptLaunch(deps: IntegrationsDeps, request: LaunchRequest): Promise<LaunchOutcome> {
  const login = await pendingLogin(deps.database.db, request.state);
  if (!login) throw expired();
  if (!sameBrowser(login.bindingHash, request.binding)) {
    throw refused(
      403,
      'other_browser',
      'This launch was started in another browser (or its cookie was blocked). Open the activity from your course again.',
    );
  }
  const platform = await findPlatform(deps.database.db, login.platformId);
  if (!platform || platform.disabled) {
    throw refused(403, 'platform_disabled', 'The connection with this LMS is turned off.');
  }
  const claims = await verifiedClaims(deps, request.idToken, platform);
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if ((audiences.length > 1 || claims.azp !== undefined) && claims.azp !== platform.clientId) {
    throw refused(401, 'invalid_id_token', 'The LMS’s sign-in was meant for another tool.');
  }
  if (claims.nonce !== login.nonce) {
    throw refused(401, 'nonce_mismatch', 'The LMS’s sign-in does not belong to this launch.');
  }
  const deploymentId = text(claims[`${CLAIM}deployment_id`]);
  if (deploymentId === undefined || !platform.deploymentIds.includes(deploymentId)) {
    throw refused(400, 'unknown_deployment', 'This deployment of the tool is not registered with Readiness.');
  }
  if (claims[`${CLAIM}version`] !== '1.3.0') {
    throw refused(400, 'unsupported_version', 'Only LTI 1.3 launches are accepted.');
  }
  const messageType = claims[`${CLAIM}message_type`];
  if (messageType !== 'LtiResourceLinkRequest' && messageType !== DEEP_LINKING_REQUEST) {
    throw refused(400, 'unsupported_message', 'This kind of launch is not supported yet.');
  }
  const target = text(claims[`${CLAIM}target_link_uri`]);
  if (
    target !== undefined &&
    new URL(target, deps.publicOrigin).origin !== new URL(deps.publicOrigin).origin
  ) {
    throw refused(400, 'foreign_target', 'The launch leads to another site than Readiness.');
  }
  if (messageType === DEEP_LINKING_REQUEST) {
    return { deepLinking: await beginDeepLinking(deps, { login, platform, claims, deploymentId }) };
  }
  const roles =
    (claims[`${CLAIM}roles`] as unknown[] | undefined)?.filter((r): r is string => typeof r === 'string') ??
    [];
  const teaching = roles.some((r) => TEACHING.test(r));
  if (!teaching && !roles.some((r) => LEARNER.test(r))) {
    throw refused(403, 'no_role', 'Only the course’s learners and instructors can open this activity.');
  }
  const resourceLinkId = text((claims[`${CLAIM}resource_link`] as { id?: unknown } | undefined)?.id) ?? null;
  if (teaching && resourceLinkId === null) {
    throw refused(
      400,
      'invalid_launch',
      'The LMS did not say which activity this is. Open it from your course again.',
    );
  }
  const lineItem = lineItemOf(claims[AGS_CLAIM]);
  if (lineItem !== undefined && !lineItemAllowed(deps, platform, lineItem)) {
    throw refused(400, 'foreign_line_item', 'The LMS’s gradebook column is on another site than the LMS.');
  }
  const launchId = randomUUID();
  const subject = claims.sub!;
  const name = personName(claims);
  await deps.database.transaction(async (tx) => {
    if (!(await takeLogin(tx, login.state))) throw expired();
    const kept = await insertLaunch(tx, {
      id: launchId,
      platformId: platform.id,
      issuer: platform.issuer,
      subject,
      deploymentId,
      resourceLinkId,
      roles,
      ags: claims[AGS_CLAIM],
      nonce: login.nonce,
      name,
    });
    if (!kept) throw expired();
  });
  if (teaching) {
    return {
      instructor: { platformId: platform.id, resourceLinkId: resourceLinkId!, title: linkTitle(claims) },
    };
  }
  const ticket: LtiLaunchTicket = {
    launchId,
    issuer: platform.issuer,
    subject,
    name,
    ...(text(claims.email) ? { email: text(claims.email) } : {}),
    expiresAt: Math.floor(Date.now() / 1000) + LTI_LAUNCH_TICKET_TTL_SECONDS,
  };
  const url = new URL(LTI_LAUNCH_TICKET_PATH, deps.publicOrigin);
  url.searchParams.set('ticket', deps.launchTickets.seal(JSON.stringify(ticket)));
  return { redirectTo: url.toString() };
}

/** The activity's title as the LMS names it (its resource link's), else a plain one. */
function linkTitle(claims: JWTPayload): string {
  const link = claims[`${CLAIM}resource_link`] as { title?: unknown } | undefined;
  return text(link?.title)?.trim().slice(0, 200) || 'Readiness assessment';
}

/** The person's name as the LMS gives it: `name`, else given and family names; empty when it gives none. */
function personName(claims: JWTPayload): string {
  const full = text(claims.name)?.trim();
  if (full) return full.slice(0, 200);
  return [text(claims.given_name), text(claims.family_name)].filter(Boolean).join(' ').trim().slice(0, 200);
}
