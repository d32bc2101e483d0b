import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, type Location } from 'react-router-dom';
import { Building2, LogOut } from 'lucide-react';
import { ExternalButtonLink } from '../../../components/ui';
import { api } from '../../../lib/api';
import { serverMessage } from '../../../lib/errors';
import { useAppDispatch } from '../../../lib/hooks';
import { notify } from '../../../lib/toast';
import { useSignInOptionsQuery, useTakeSsoSessionMutation } from '../api/auth-api';
import type { SignInOptions } from '../api/types';
import { startSession } from '../auth-slice';
import { redirectTarget } from '../redirect-target';
import { rememberEndSession, takeEndSessionOffer } from '../sso-sign-out';

/** Why a sign-in through the provider ended on the login page (the auth service's `sso_error`). */
const REFUSALS: Record<string, (provider: string) => string> = {
  no_account: () =>
    'Your institution signed you in, but no Readiness admin account uses your e-mail address. Ask a super admin to add you.',
  disabled: () => 'Your admin account is disabled. Ask a super admin to enable it.',
  unverified: (provider) =>
    `${provider} has not verified your e-mail address, so it cannot be matched to an admin account.`,
  cancelled: (provider) => `Sign-in with ${provider} was cancelled.`,
  failed: (provider) => `Sign-in with ${provider} did not complete. Please try again.`,
  unavailable: (provider) => `${provider} cannot be reached right now. Try again later.`,
};

export type SingleSignOnOutcome =
  | { state: 'idle' }
  | { state: 'signing-in' }
  /** The page the admin was going to, checked like the guard's remembered one. */
  | { state: 'signed-in'; returnTo: string }
  | { state: 'refused'; reason: string; message?: string };

/** An in-app path as the location the sign-in guard remembers, so the page opens where the admin was going. */
function asLocation(path: string): Partial<Location> {
  const url = new URL(path, window.location.origin);
  return { pathname: url.pathname, search: url.search, hash: url.hash };
}

/**
 * The login page's side of the provider's round trip: `?sso=signed-in` takes the session the auth service
 * prepared for this browser (once), `?sso_error=` says why there is none. The query is then cleared.
 */
export function useSingleSignOnReturn(): SingleSignOnOutcome {
  const location = useLocation();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const [takeSession] = useTakeSsoSessionMutation();
  const params = new URLSearchParams(location.search);
  const signedIn = params.get('sso') === 'signed-in';
  const refusal = params.get('sso_error');
  const [outcome, setOutcome] = useState<SingleSignOnOutcome>(() =>
    signedIn ? { state: 'signing-in' } : refusal ? { state: 'refused', reason: refusal } : { state: 'idle' },
  );
  const taken = useRef(false);

  useEffect(() => {
    if (!signedIn && !refusal) return;
    if (!signedIn) {
      navigate(location.pathname, { replace: true, state: location.state });
      return;
    }
    if (taken.current) return;
    taken.current = true;
    takeSession()
      .unwrap()
      .then((answer) => {
        rememberEndSession(answer.endSessionUrl);
        dispatch(api.util.resetApiState());
        setOutcome({ state: 'signed-in', returnTo: redirectTarget({ from: asLocation(answer.returnTo) }) });
        dispatch(startSession(answer));
        notify.success(`Welcome back, ${answer.admin.name}!`);
      })
      .catch((err: unknown) => {
        setOutcome({ state: 'refused', reason: 'failed', message: serverMessage(err) });
        navigate(location.pathname, { replace: true, state: location.state });
      });
  }, [signedIn, refusal, takeSession, dispatch, navigate, location.pathname, location.state]);

  return outcome;
}

/**
 * Above the password form when single sign-on is configured: why the last attempt failed, the offer to sign
 * out of the provider too after signing out of Readiness, and the button that starts a sign-in there.
 */
export function SingleSignOn({ outcome, returnTo }: { outcome: SingleSignOnOutcome; returnTo: string }) {
  const { data: options } = useSignInOptionsQuery();
  const [endSessionOffer] = useState(takeEndSessionOffer);
  const provider = options?.singleSignOn?.name;
  const refused = outcome.state === 'refused' ? outcome : undefined;

  return (
    <>
      {refused && options && (
        <div className="auth-note auth-note--error" role="alert">
          <p>
            {refused.message ??
              sentence((REFUSALS[refused.reason] ?? REFUSALS.failed!)(provider ?? 'your institution'))}
          </p>
        </div>
      )}
      {endSessionOffer && provider && (
        <div className="auth-note" role="note">
          <p>
            You are signed out of Readiness.{' '}
            <a href={endSessionOffer}>
              <LogOut size={14} aria-hidden="true" /> Sign out of {provider} too
            </a>
          </p>
        </div>
      )}
      {provider && options && (
        <>
          <ExternalButtonLink
            href={`/api/auth/oidc/start?${new URLSearchParams({ returnTo })}`}
            icon={<Building2 size={18} aria-hidden="true" />}
          >
            Sign in with {provider}
          </ExternalButtonLink>
          <p className="auth__divider">{passwordDivider(options)}</p>
        </>
      )}
    </>
  );
}

const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function passwordDivider(options: SignInOptions): string {
  return options.passwordSignIn === 'super-admins'
    ? 'Super admins: sign in with a password'
    : 'or use your password';
}
