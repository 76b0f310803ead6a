import { UserManager, WebStorageStateStore, type User } from 'oidc-client-ts';
import type { ShellConfig } from '../../config';
import type { AuthService, Profile } from './types';

export const CALLBACK_PATH = '/login/callback';

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
    // SPEC section 9: login state kept for 1 hour, session checked every 5 seconds.
    staleStateAgeInSeconds: 3600,
    monitorSession: true,
    checkSessionIntervalInSeconds: 5,
    userStore: new WebStorageStateStore({ store: window.sessionStorage }),
    stateStore: new WebStorageStateStore({ store: window.sessionStorage }),
  });

  const silentSignIn = () => manager.signinSilent().catch(() => null);

  async function restore() {
    if (window.location.pathname === CALLBACK_PATH) {
      const user = await manager.signinRedirectCallback();
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
    signIn: (returnTo) => manager.signinRedirect(returnTo ? { state: { returnTo } } : undefined),
    signOut: () => manager.signoutRedirect(),
    forget: () => manager.removeUser(),
    async getAccessToken() {
      const user = await manager.getUser();
      if (user && !user.expired) return user.access_token;
      return (await silentSignIn())?.access_token ?? null;
    },
    onSessionEnded(listener) {
      const ended = () => {
        void manager.removeUser().finally(listener);
      };
      manager.events.addUserSignedOut(ended);
      manager.events.addAccessTokenExpired(ended);
      return () => {
        manager.events.removeUserSignedOut(ended);
        manager.events.removeAccessTokenExpired(ended);
      };
    },
  };
}
