import { ErrorResponse, UserManager, WebStorageStateStore, type User } from 'oidc-client-ts';
import type { ShellConfig } from '../../config';
import type { AuthService, Profile } from './types';

export const CALLBACK_PATH = '/login/callback';

/** Set in this tab when an account was refused: its next sign-in asks the provider for the account (prompt=login). */
export const CHOOSE_ACCOUNT_KEY = 'mailroom.chooseAccount';
/** The channel on which this browser's tabs tell each other of a logout. */
export const SESSION_CHANNEL = 'mailroom-session';
/** docs/product.md, Limits and constants: the provider session is checked every 5 seconds. */
export const SESSION_CHECK_MS = 5000;
/** What a prompt=none request answers when nobody is signed in at the provider any more. */
const SIGNED_OUT_ERRORS = new Set(['login_required', 'interaction_required', 'consent_required', 'account_selection_required']);

function profileOf(user: User): Profile {
  const claims = user.profile;
  return {
    firstName: String(claims.given_name ?? ''),
    lastName: String(claims.family_name ?? ''),
    email: String(claims.email ?? ''),
  };
}

/**
 * oidc-client-ts against the configured provider: authorization code + PKCE. Tokens (access and
 * refresh) and the login state live in this tab's sessionStorage, never in localStorage: they end
 * with the tab and no other tab or later visit finds them, while a reload keeps the session without
 * a round trip through the provider's iframe.
 */
export function createOidcAuth(config: ShellConfig, origin = window.location.origin): AuthService {
  const manager = new UserManager({
    authority: config.oidc.authority,
    client_id: config.oidc.clientId,
    redirect_uri: `${origin}${CALLBACK_PATH}`,
    silent_redirect_uri: `${origin}/silent-check-sso.html`,
    post_logout_redirect_uri: `${origin}/login`,
    response_type: 'code',
    scope: config.oidc.scope || 'openid profile email',
    loadUserInfo: true,
    automaticSilentRenew: true,
    // docs/product.md, Limits and constants: login state kept for 1 hour, session checked every 5 seconds.
    staleStateAgeInSeconds: 3600,
    monitorSession: true,
    checkSessionIntervalInSeconds: 5,
    userStore: new WebStorageStateStore({ store: window.sessionStorage }),
    stateStore: new WebStorageStateStore({ store: window.sessionStorage }),
  });

  const silentSignIn = () => manager.signinSilent().catch(() => null);
  const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(SESSION_CHANNEL);

  /**
   * Providers with a check_session_iframe (Keycloak) are watched by oidc-client-ts itself
   * (monitorSession). Others (oidc-provider has none) are asked every 5 s with a prompt=none request
   * in a hidden frame: an error that says nobody is signed in, or another account, ends the session.
   * A failure that says nothing (time-out, network) is not taken for a logout.
   */
  function pollProviderSession(ended: () => void): () => void {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const check = async () => {
      const user = await manager.getUser();
      if (!user) return;
      try {
        const status = await manager.querySessionStatus({ silentRequestTimeoutInSeconds: SESSION_CHECK_MS / 1000 });
        if (status?.sub && status.sub !== user.profile.sub) ended();
      } catch (error) {
        if (error instanceof ErrorResponse && error.error && SIGNED_OUT_ERRORS.has(error.error)) ended();
      }
    };
    const next = () => {
      if (stopped) return;
      timer = setTimeout(() => void check().finally(next), SESSION_CHECK_MS);
    };
    void manager.metadataService
      .getCheckSessionIframe()
      .catch(() => undefined)
      .then((iframe) => {
        if (!iframe) next();
      });
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }

  async function restore() {
    if (window.location.pathname === CALLBACK_PATH) {
      const user = await manager.signinRedirectCallback();
      window.sessionStorage.removeItem(CHOOSE_ACCOUNT_KEY);
      const returnTo = (user.state as { returnTo?: string } | undefined)?.returnTo;
      return { profile: profileOf(user), ...(returnTo ? { returnTo } : {}) };
    }
    const stored = await manager.getUser();
    const user = stored && !stored.expired ? stored : await silentSignIn();
    return user ? { profile: profileOf(user) } : null;
  }
  // Once per page: a redirect callback can be completed only once (React may mount twice in development).
  let restoring: ReturnType<typeof restore> | null = null;

  return {
    restoreSession: () => (restoring ??= restore()),
    signIn: (returnTo) =>
      manager.signinRedirect({
        ...(returnTo ? { state: { returnTo } } : {}),
        // The provider still holds the refused account's session: without this it would sign it in again unasked.
        ...(window.sessionStorage.getItem(CHOOSE_ACCOUNT_KEY) ? { prompt: 'login' } : {}),
      }),
    signOut: () => {
      channel?.postMessage('signedOut');
      return manager.signoutRedirect();
    },
    async forget() {
      window.sessionStorage.setItem(CHOOSE_ACCOUNT_KEY, '1');
      await manager.removeUser();
    },
    async getAccessToken() {
      const user = await manager.getUser();
      if (user && !user.expired) return user.access_token;
      return (await silentSignIn())?.access_token ?? null;
    },
    onSessionEnded(listener) {
      // Only a tab that is signed in is told (a signed-out tab also hears the other tabs' logouts).
      const ended = () => {
        void manager.getUser().then(async (user) => {
          if (!user) return;
          await manager.removeUser().finally(listener);
        });
      };
      manager.events.addUserSignedOut(ended);
      manager.events.addAccessTokenExpired(ended);
      const onMessage = (event: MessageEvent) => {
        if (event.data === 'signedOut') ended();
      };
      channel?.addEventListener('message', onMessage);
      const stopPolling = pollProviderSession(ended);
      return () => {
        manager.events.removeUserSignedOut(ended);
        manager.events.removeAccessTokenExpired(ended);
        channel?.removeEventListener('message', onMessage);
        stopPolling();
      };
    },
  };
}
