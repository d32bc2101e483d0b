import {
  createAsyncThunk,
  createSlice,
  type PayloadAction,
  type ThunkDispatch,
  type UnknownAction,
} from '@reduxjs/toolkit';
import { api } from '../../lib/api';
import { isHttpError, serverMessage } from '../../lib/errors';
import { sessionExpired, type SessionEnd } from '../../lib/session-events';
import { clearToken, readToken, storeToken } from '../../lib/session-token';
import { authApi, type SecondFactorStep } from './api/auth-api';
import type { LoginInput } from './api/schemas';
import type { Admin, SessionResponse } from './api/types';
import { offerEndSession } from './sso-sign-out';
import { adminT } from '../../i18n/admin/admin-i18n';

/** SPEC §4: loading until the stored token (if any) is checked, then signed out or signed in. */
export type SessionStatus = 'loading' | 'signedOut' | 'signedIn';

export interface AuthState {
  status: SessionStatus;
  admin: Admin | null;
  /** Why the last session ended, for the login page to say, until the next sign-in. */
  ended?: SessionEnd;
}

const initialState: AuthState = { status: 'loading', admin: null };

type Dispatch = ThunkDispatch<unknown, unknown, UnknownAction>;

/**
 * Pauses before the session check is asked again after an answer that says "not now" (429, 502, 503, 504, or no
 * answer at all): a server at its enrolment peak, or a restart, must not sign every open admin tab out.
 */
export const SESSION_CHECK_RETRIES_MS = [500, 1500, 3000];

const isTransient = (err: unknown) =>
  isHttpError(err)
    ? [429, 502, 503, 504].includes(err.status)
    : (err as { status?: unknown } | null)?.status === 'FETCH_ERROR';

export const restoreSession = createAsyncThunk('auth/restoreSession', async (_: void, { dispatch }) => {
  if (!readToken()) return null;
  for (let attempt = 0; ; attempt += 1) {
    const request = dispatch(authApi.endpoints.me.initiate(undefined, { forceRefetch: true }));
    try {
      return await request.unwrap();
    } catch (err) {
      const pause = SESSION_CHECK_RETRIES_MS[attempt];
      if (pause !== undefined && isTransient(err)) {
        await new Promise((resolve) => setTimeout(resolve, pause));
        continue;
      }
      // SPEC §4: a check that failed (refused, or still unanswered after the retries) removes the token.
      console.error('Auth check failed:', err);
      clearToken();
      return null;
    } finally {
      request.unsubscribe();
    }
  }
});

export const logout = createAsyncThunk('auth/logout', async (_: void, { dispatch }) => {
  if (readToken()) {
    // Revoke the token on the server; the client drops it whatever the answer.
    await dispatch(authApi.endpoints.logout.initiate())
      .unwrap()
      .catch(() => undefined);
  }
  clearToken();
  offerEndSession();
  dispatch(api.util.resetApiState());
});

export type LoginOutcome =
  | { success: true; admin: Admin }
  | { success: false; error: string }
  | { success: false; secondFactor: SecondFactorStep };

/**
 * Signs in. A refused login (an HTTP error) resolves with the server's message, else 'Login failed';
 * anything else — no network, an unreadable answer — rejects, and the screen reports it as unexpected.
 */
export const login =
  (input: LoginInput) =>
  async (dispatch: Dispatch): Promise<LoginOutcome> => {
    const request = dispatch(authApi.endpoints.login.initiate(input));
    let answer: SessionResponse | SecondFactorStep;
    try {
      answer = await request.unwrap();
    } catch (err) {
      if (isHttpError(err))
        return { success: false, error: serverMessage(err) ?? adminT('auth.login.failed') };
      throw err;
    } finally {
      request.reset();
    }
    // The right password of an admin with a second factor: no session yet, the screen asks for the code.
    if ('mfaRequired' in answer) return { success: false, secondFactor: answer };
    if (typeof answer.token !== 'string' || !answer.admin) throw new Error('Malformed login response');
    dispatch(finishSignIn(answer));
    return { success: true, admin: answer.admin };
  };

/** A session from a sign-in (password, or password and second factor) starts clean. */
export const finishSignIn = (answer: SessionResponse) => (dispatch: Dispatch) => {
  // Whatever another admin had cached in this tab must not show to this one.
  dispatch(api.util.resetApiState());
  dispatch(startSession(answer));
};

/** Keeps a token the server issued (login, password change) and marks the admin as signed in. */
export const startSession = (answer: SessionResponse) => (dispatch: Dispatch) => {
  storeToken(answer.token);
  dispatch(signedIn(answer.admin));
};

const authSlice = createSlice({
  name: 'auth',
  initialState,
  reducers: {
    signedIn(state, action: PayloadAction<Admin>) {
      state.status = 'signedIn';
      state.admin = action.payload;
      delete state.ended;
    },
    signedOut(state) {
      state.status = 'signedOut';
      state.admin = null;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(restoreSession.fulfilled, (state, action) => {
        state.status = action.payload ? 'signedIn' : 'signedOut';
        state.admin = action.payload;
      })
      .addCase(logout.fulfilled, (state) => {
        state.status = 'signedOut';
        state.admin = null;
        // Calls refused while the logout revoked the token do not make it someone else's doing.
        delete state.ended;
      })
      .addCase(sessionExpired, (state, action) => {
        // Only the end of a session has a reason: calls still under way after a sign-out answer 401 too.
        if (state.status !== 'signedOut') {
          if (action.payload) state.ended = action.payload;
          else delete state.ended;
        }
        state.status = 'signedOut';
        state.admin = null;
      });
  },
});

export const { signedIn, signedOut } = authSlice.actions;
export const authReducer = authSlice.reducer;

type WithAuth = { auth: AuthState };
export const selectSessionStatus = (state: WithAuth) => state.auth.status;
export const selectAdmin = (state: WithAuth) => state.auth.admin;
export const selectSessionEnd = (state: WithAuth) => state.auth.ended ?? null;
/** SPEC §4 derived flags. */
export const selectIsAuthenticated = (state: WithAuth) => state.auth.admin !== null;
export const selectIsSuperAdmin = (state: WithAuth) => state.auth.admin?.role === 'super_admin';
