import { createContext, startTransition, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { useNotify } from '../notify/NotifyProvider';
import { isOrgMember, nonMemberMessage } from './membership';
import { safeReturnPath } from './returnTo';
import type { AuthService, Profile } from './types';

/** `sessionEnded`: the session was ended elsewhere (another tab, the provider) while this tab was signed in. */
export type AuthState = { status: 'loading' } | { status: 'signedOut'; sessionEnded?: boolean } | { status: 'signedIn'; profile: Profile };

interface AuthContextValue {
  state: AuthState;
  signIn: (returnTo?: string) => void;
  signOut: () => void;
  getAccessToken: () => Promise<string | null>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

const errorMessage = (error: unknown) => (error instanceof Error && error.message ? error.message : 'Sign-in failed');

/**
 * Sign-in on load (docs/product.md, the screens and their states, "Sign-in"): the redirect callback or the silent check, then the
 * profile; only an e-mail of the organisation's domain signs in, anyone else gets an error toast,
 * loses the local session and stays signed out.
 */
export function AuthProvider({
  auth,
  orgDomain,
  orgName,
  children,
}: {
  auth: AuthService;
  orgDomain: string;
  orgName: string;
  children: ReactNode;
}) {
  const [state, setState] = useState<AuthState>({ status: 'loading' });
  const notify = useNotify();
  const navigate = useNavigate();
  // The check runs once per AuthService; navigate() changes identity with the location. Declared
  // before the check's effect, so the check reads the values of the render that started it.
  const latest = useRef({ notify, navigate, orgDomain, orgName });
  useEffect(() => {
    latest.current = { notify, navigate, orgDomain, orgName };
  });

  useEffect(() => {
    let active = true;
    const { notify, navigate, orgDomain, orgName } = latest.current;
    auth
      .restoreSession()
      .then(async (session) => {
        if (!active) return;
        if (!session) {
          setState({ status: 'signedOut' });
          return;
        }
        if (!isOrgMember(session.profile.email, orgDomain)) {
          await auth.forget();
          if (!active) return;
          notify('error', nonMemberMessage(orgName));
          setState({ status: 'signedOut' });
          void navigate('/login', { replace: true });
          return;
        }
        // The router moves to the return address in a transition; signing in in the same transition
        // commits both at once. Signed in first, the callback path would meet the catch-all
        // redirect to /audiences before the return address arrived.
        const returnTo = safeReturnPath(session.returnTo);
        startTransition(() => {
          if (returnTo) void navigate(returnTo, { replace: true });
          setState({ status: 'signedIn', profile: session.profile });
        });
      })
      .catch((error: unknown) => {
        if (!active) return;
        notify('error', errorMessage(error));
        setState({ status: 'signedOut' });
        void navigate('/login', { replace: true });
      });
    return () => {
      active = false;
    };
  }, [auth]);

  useEffect(() => auth.onSessionEnded(() => setState({ status: 'signedOut', sessionEnded: true })), [auth]);

  const signIn = useCallback(
    (returnTo?: string) => {
      auth.signIn(safeReturnPath(returnTo) ?? undefined).catch((error: unknown) => notify('error', errorMessage(error)));
    },
    [auth, notify],
  );
  const signOut = useCallback(() => {
    auth.signOut().catch((error: unknown) => notify('error', errorMessage(error)));
  }, [auth, notify]);
  const getAccessToken = useCallback(() => auth.getAccessToken(), [auth]);

  const value = useMemo(() => ({ state, signIn, signOut, getAccessToken }), [state, signIn, signOut, getAccessToken]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth() outside <AuthProvider>');
  return value;
}
