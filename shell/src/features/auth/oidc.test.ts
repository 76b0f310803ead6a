import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { testConfig } from '../../test/render';
import { CALLBACK_PATH, CHOOSE_ACCOUNT_KEY, SESSION_CHANNEL, createOidcAuth } from './oidc';

const ORIGIN = window.location.origin;
const AUTHORITY = testConfig.oidc.authority;
const ACCESS_TOKEN = 'access-token-of-mia';
const REFRESH_TOKEN = 'refresh-token-of-mia';

const base64url = (value: object) => btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
/** An unsigned id_token: oidc-client-ts reads its claims; checking the signature is the API's job. */
const idToken = (nonce: string | null) =>
  [
    base64url({ alg: 'none', typ: 'JWT' }),
    base64url({ iss: AUTHORITY, aud: testConfig.oidc.clientId, sub: 'mia', exp: Math.floor(Date.now() / 1000) + 300, nonce }),
    '',
  ].join('.');

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });

/** The provider's endpoints, as oidc-client-ts calls them with fetch. */
function stubProvider() {
  let nonce: string | null = null;
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    switch (url.pathname) {
      case '/.well-known/openid-configuration':
        return json({
          issuer: AUTHORITY,
          authorization_endpoint: `${AUTHORITY}/auth`,
          token_endpoint: `${AUTHORITY}/token`,
          userinfo_endpoint: `${AUTHORITY}/me`,
          end_session_endpoint: `${AUTHORITY}/session/end`,
          jwks_uri: `${AUTHORITY}/jwks`,
        });
      case '/token':
        expect(new URLSearchParams(String(init?.body)).get('code')).toBe('code-1');
        return json({
          access_token: ACCESS_TOKEN,
          refresh_token: REFRESH_TOKEN,
          id_token: idToken(nonce),
          token_type: 'Bearer',
          expires_in: 300,
          scope: testConfig.oidc.scope,
        });
      case '/me':
        return json({ sub: 'mia', email: 'mia@example.org', given_name: 'Mia', family_name: 'Member' });
      default:
        return new Response('not found', { status: 404 });
    }
  });
  vi.stubGlobal('fetch', fetchMock);
  return { rememberNonce: (value: string | null) => (nonce = value) };
}

/**
 * jsdom cannot leave the page: the redirect to the provider is caught where oidc-client-ts makes it
 * (`window.self.location.assign`), and the provider's answer comes back as the callback URL.
 */
function catchRedirect() {
  const assign = vi.fn<(url: string) => void>();
  const redirectTarget = { location: { assign }, stop: () => {} };
  Object.defineProperty(window, 'self', { configurable: true, get: () => redirectTarget });
  return assign;
}

/** Every key and value of a storage, as one text. */
const contents = (storage: Storage) =>
  Array.from({ length: storage.length }, (_, index) => {
    const key = storage.key(index)!;
    return `${key}=${storage.getItem(key)}`;
  }).join('\n');

describe('where the shell keeps the tokens', () => {
  const realSelf = Object.getOwnPropertyDescriptor(window, 'self')!;
  beforeEach(() => {
    window.history.replaceState(null, '', '/login');
    sessionStorage.clear();
  });
  afterEach(() => {
    Object.defineProperty(window, 'self', realSelf);
    window.history.replaceState(null, '', '/');
    sessionStorage.clear();
  });

  it('signs in with code + PKCE and leaves nothing in localStorage', async () => {
    const provider = stubProvider();
    const assign = catchRedirect();

    void createOidcAuth(testConfig, ORIGIN).signIn('/audiences/3');
    await vi.waitFor(() => expect(assign).toHaveBeenCalledTimes(1));
    const authorize = new URL(assign.mock.calls[0]![0]);
    expect(authorize.origin + authorize.pathname).toBe(`${AUTHORITY}/auth`);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    // The login state (with the PKCE verifier) waits for the provider's answer outside localStorage.
    expect(contents(localStorage)).toBe('');
    provider.rememberNonce(authorize.searchParams.get('nonce'));

    // The provider sends the browser back: a new page load on the callback route.
    window.history.replaceState(null, '', `${CALLBACK_PATH}?code=code-1&state=${authorize.searchParams.get('state')}`);
    const auth = createOidcAuth(testConfig, ORIGIN);
    await expect(auth.restoreSession()).resolves.toEqual({
      profile: { firstName: 'Mia', lastName: 'Member', email: 'mia@example.org' },
      returnTo: '/audiences/3',
    });
    await expect(auth.getAccessToken()).resolves.toBe(ACCESS_TOKEN);

    expect(contents(localStorage)).not.toContain(ACCESS_TOKEN);
    expect(contents(localStorage)).not.toContain(REFRESH_TOKEN);
    expect(contents(localStorage)).toBe('');
  });

  it('keeps the session across a reload of the same tab, without asking the provider again', async () => {
    const provider = stubProvider();
    const assign = catchRedirect();
    void createOidcAuth(testConfig, ORIGIN).signIn();
    await vi.waitFor(() => expect(assign).toHaveBeenCalledTimes(1));
    const authorize = new URL(assign.mock.calls[0]![0]);
    provider.rememberNonce(authorize.searchParams.get('nonce'));
    window.history.replaceState(null, '', `${CALLBACK_PATH}?code=code-1&state=${authorize.searchParams.get('state')}`);
    await createOidcAuth(testConfig, ORIGIN).restoreSession();

    window.history.replaceState(null, '', '/audiences');
    const fetchMock = vi.mocked(fetch);
    fetchMock.mockClear();
    const reloaded = createOidcAuth(testConfig, ORIGIN);
    await expect(reloaded.restoreSession()).resolves.toEqual({
      profile: { firstName: 'Mia', lastName: 'Member', email: 'mia@example.org' },
    });
    await expect(reloaded.getAccessToken()).resolves.toBe(ACCESS_TOKEN);
    expect(fetchMock.mock.calls.map(([input]) => new URL(String(input)).pathname)).not.toContain('/token');
  });

  /** Signs Mia in through the stubbed provider; answers the tab's AuthService after the callback. */
  async function signedInTab() {
    const provider = stubProvider();
    const assign = catchRedirect();
    void createOidcAuth(testConfig, ORIGIN).signIn();
    await vi.waitFor(() => expect(assign).toHaveBeenCalledTimes(1));
    const authorize = new URL(assign.mock.calls[0]![0]);
    provider.rememberNonce(authorize.searchParams.get('nonce'));
    window.history.replaceState(null, '', `${CALLBACK_PATH}?code=code-1&state=${authorize.searchParams.get('state')}`);
    const auth = createOidcAuth(testConfig, ORIGIN);
    await auth.restoreSession();
    window.history.replaceState(null, '', '/audiences');
    assign.mockClear();
    return { auth, assign };
  }

  it('after a refused account, the next sign-in asks the provider for the account (prompt=login)', async () => {
    const { auth, assign } = await signedInTab();
    void auth.signIn();
    await vi.waitFor(() => expect(assign).toHaveBeenCalledTimes(1));
    expect(new URL(assign.mock.calls[0]![0]).searchParams.get('prompt')).toBeNull();

    assign.mockClear();
    await auth.forget();
    void auth.signIn('/audiences');
    await vi.waitFor(() => expect(assign).toHaveBeenCalledTimes(1));
    expect(new URL(assign.mock.calls[0]![0]).searchParams.get('prompt')).toBe('login');
    expect(sessionStorage.getItem(CHOOSE_ACCOUNT_KEY)).toBe('1');
  });

  it('a logout tells the other tabs of the browser', async () => {
    const { auth } = await signedInTab();
    const otherTab = new BroadcastChannel(SESSION_CHANNEL);
    const heard = new Promise((resolve) => otherTab.addEventListener('message', (event) => resolve(event.data)));
    try {
      // The redirect to the provider's logout never resolves: the page would be gone.
      void auth.signOut();
      await expect(heard).resolves.toBe('signedOut');
    } finally {
      otherTab.close();
    }
  });

  it("another tab's logout ends this tab's session", async () => {
    const { auth } = await signedInTab();
    const ended = vi.fn();
    const stop = auth.onSessionEnded(ended);
    const otherTab = new BroadcastChannel(SESSION_CHANNEL);
    try {
      otherTab.postMessage('signedOut');
      await vi.waitFor(() => expect(ended).toHaveBeenCalledTimes(1));
      expect(contents(sessionStorage)).not.toContain(ACCESS_TOKEN);
    } finally {
      otherTab.close();
      stop();
    }
  });
});
