import { htmlPage } from '@readiness/kit/http';
import { escapeHtml } from '@readiness/kit/i18n';
import type { Response } from 'express';
import type { IntegrationsDeps } from '../../domain/context';
import { type DeepLinkingAnswer, type DeepLinkingConfirmation } from '../../domain/deep-linking';
import { framingOrigins } from '../../domain/framing-origins';
import { scriptNonce, setLtiPagePolicy } from './lti-pages';

export const DEEP_LINKING_PATH = '/api/lti/deep-linking';

const BUTTON =
  'font:inherit;padding:0.5rem 1rem;margin-inline-end:0.75rem;border-radius:0.375rem;border:1px solid #1e3a8a;cursor:pointer';
const PRIMARY = `${BUTTON};background:#1e40af;color:#fff`;
const SECONDARY = `${BUTTON};background:#fff;color:#1e3a8a`;

/** The instructor's page after a deep-linking launch: what is added where, and Add or Cancel. */
export async function sendConfirmationPage(
  res: Response,
  deps: IntegrationsDeps,
  confirmation: DeepLinkingConfirmation,
) {
  setLtiPagePolicy(res, await framingOrigins(deps, [confirmation.returnOrigin]));
  const title = escapeHtml(confirmation.title);
  res
    .status(200)
    .type('html')
    .send(
      htmlPage(
        'Add the assessment to your course',
        `<p>This adds the activity <strong>${title}</strong> to your course in ${escapeHtml(confirmation.platformName)}. ` +
          'Students who open it go straight to their own readiness assessment, and the LMS keeps a gradebook column for ' +
          'its score, out of 100.</p><p>You can rename the activity in the LMS afterwards.</p>' +
          `<form method="post" action="${DEEP_LINKING_PATH}">` +
          `<input type="hidden" name="request" value="${escapeHtml(confirmation.requestId)}">` +
          `<button type="submit" name="choice" value="add" style="${PRIMARY}">Add the assessment</button>` +
          `<button type="submit" name="choice" value="cancel" style="${SECONDARY}">Cancel</button></form>`,
      ),
    );
}

/**
 * The signed answer, posted to the LMS by the page's one script (allowed by its nonce); the button does the same
 * where scripts do not run.
 */
export async function sendAnswerPage(res: Response, deps: IntegrationsDeps, answer: DeepLinkingAnswer) {
  const nonce = scriptNonce();
  setLtiPagePolicy(res, await framingOrigins(deps, [new URL(answer.returnUrl).origin]), {
    scriptNonce: nonce,
    anyFormTarget: true,
  });
  res
    .status(200)
    .type('html')
    .send(
      htmlPage(
        'Back to your course',
        `<p>Sending your choice to ${escapeHtml(answer.platformName)}. If nothing happens, press Continue.</p>` +
          `<form id="lti-answer" method="post" action="${escapeHtml(answer.returnUrl)}">` +
          `<input type="hidden" name="JWT" value="${escapeHtml(answer.jwt)}">` +
          `<button type="submit" style="${PRIMARY}">Continue</button></form>` +
          `<script nonce="${nonce}">document.getElementById('lti-answer').submit();</script>`,
      ),
    );
}
