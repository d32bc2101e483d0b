import { forbidden } from '@readiness/kit/errors';
import { sessionsRepository as sessions } from '../../data-access/sessions-repository';
import type { AccountsContext, Authenticated } from './context';

export const REAUTHENTICATION_REQUIRED = 'reauthentication_required';

export const reauthenticationRequired = () =>
  forbidden(
    'Confirm it is you to continue: enter your password, or use your authenticator app or a passkey.',
    REAUTHENTICATION_REQUIRED,
  );

/** Until when the session's last proof (its sign-in, or a step-up) lets it change factors; null when it no longer does. */
export async function provedUntil(ctx: AccountsContext, actor: Authenticated): Promise<Date | null> {
  const sid = actor.claims.sid;
  if (!sid) return null;
  const at = await sessions.reauthenticatedAt(ctx.database.db, actor.admin.id, sid);
  if (!at) return null;
  const until = new Date(at.getTime() + ctx.stepUpSeconds * 1000);
  return until.getTime() > Date.now() ? until : null;
}

/**
 * Every change of how an admin proves who they are (a passkey, the authenticator app, recovery codes, a reset of
 * one's own factors) needs a proof of the person given in this session within the last few minutes: a valid token
 * alone, a stolen one say, never adds a way in that would outlive it.
 */
export async function assertReauthenticated(ctx: AccountsContext, actor: Authenticated): Promise<void> {
  if (!(await provedUntil(ctx, actor))) throw reauthenticationRequired();
}
