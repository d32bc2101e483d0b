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
import { adminT, useAdminT } from '../../../i18n/admin/admin-i18n';

/** Why a sign-in through the provider ended on the login page (the auth service's `sso_error`). */
function refusalMessage(reason: string, provider: string | undefined): string {
  // Without the provider's name the messages say 'your institution' (`known` is 'no').
  const values = { provider, known: provider ? 'yes' : 'no' };
  switch (reason) {
    case 'no_account':
      return adminT('auth.sso.refused.noAccount');
    case 'disabled':
      return adminT('auth.sso.refused.disabled');
    case 'unverified':
      return adminT('auth.sso.refused.unverified', values);
    case 'cancelled':
      return adminT('auth.sso.refused.cancelled', values);
    case 'unavailable':
      return adminT('auth.sso.refused.unavailable', values);
    default:
      return adminT('auth.sso.refused.failed', values);
  }
}

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
        notify.success(adminT('auth.login.welcome', { name: answer.admin.name }));
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
  const t = useAdminT();
  const { data: options } = useSignInOptionsQuery();
  const [endSessionOffer] = useState(takeEndSessionOffer);
  const provider = options?.singleSignOn?.name;
  const refused = outcome.state === 'refused' ? outcome : undefined;

  return (
    <>
      {refused && options && (
        <div className="auth-note auth-note--error" role="alert">
          <p>{refused.message ?? refusalMessage(refused.reason, provider)}</p>
        </div>
      )}
      {endSessionOffer && provider && (
        <div className="auth-note" role="note">
          <p>
            {t('auth.sso.signedOut')}{' '}
            <a href={endSessionOffer}>
              <LogOut size={14} aria-hidden="true" /> {t('auth.sso.signOutProvider', { provider })}
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
            {t('auth.sso.signIn', { provider })}
          </ExternalButtonLink>
          <p className="auth__divider">{passwordDivider(options)}</p>
        </>
      )}
    </>
  );
}

function passwordDivider(options: SignInOptions): string {
  return options.passwordSignIn === 'super-admins'
    ? adminT('auth.sso.dividerSuperAdmins')
    : adminT('auth.sso.divider');
}
