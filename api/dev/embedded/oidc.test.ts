/**
 * The embedded OpenID provider, driven like a browser with plain fetch: authorization code + PKCE through our login
 * form, tokens, the API's verifier on the access token, userinfo, silent (prompt=none) checks, refresh, CORS, logout.
 */
import { createHash, randomBytes } from 'node:crypto';

import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { parseRoleMap } from '../../src/auth/roles.js';
import { AuthError, createTokenVerifier, type TokenVerifier } from '../../src/auth/verifier.js';
import { EMBEDDED_ROLE_MAP, EMBEDDED_ROLES_CLAIM } from './oidc-accounts.js';
import { startEmbeddedOidc, type EmbeddedOidc } from './oidc.js';

const SHELL = 'http://localhost:8080';
const REDIRECT_URI = `${SHELL}/login/callback`;
const SILENT_URI = `${SHELL}/silent-check-sso.html`;
const POST_LOGOUT_URI = `${SHELL}/login`;

/** A minimal cookie jar that respects Path and deletions, like a browser for one host. */
class CookieJar {
  private cookies = new Map<string, { name: string; value: string; path: string }>();

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      let path = '/';
      let expired = value === '';
      for (const attribute of attributes) {
        const [key = '', val = ''] = attribute.split('=');
        if (key.toLowerCase() === 'path') path = val;
        if (key.toLowerCase() === 'expires' && Date.parse(val) <= Date.now()) expired = true;
        if (key.toLowerCase() === 'max-age' && Number(val) <= 0) expired = true;
      }
      const id = `${name};${path}`;
      if (expired) this.cookies.delete(id);
      else this.cookies.set(id, { name, value, path });
    }
  }

  header(url: URL): string {
    return [...this.cookies.values()]
      .filter((c) => url.pathname === c.path || url.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`))
      .sort((a, b) => b.path.length - a.path.length)
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  names(): string[] {
    return [...this.cookies.values()].map((c) => c.name);
  }
}

class Browser {
  readonly jar = new CookieJar();

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const target = new URL(url);
    const headers = new Headers(init.headers);
    const cookie = this.jar.header(target);
    if (cookie) headers.set('cookie', cookie);
    const response = await fetch(target, { ...init, headers, redirect: 'manual' });
    this.jar.store(response);
    return response;
  }

  /** Follows redirects on the provider; stops at a page (2xx) or at a redirect that leaves the provider. */
  async navigate(
    url: string,
    init: RequestInit = {},
    providerOrigin: string,
  ): Promise<{ response: Response; url: string; leftTo?: string }> {
    let current = url;
    let response = await this.request(current, init);
    for (let hops = 0; hops < 20; hops += 1) {
      if (response.status < 300 || response.status >= 400) return { response, url: current };
      const location = new URL(response.headers.get('location') ?? '', current);
      if (location.origin !== providerOrigin) return { response, url: current, leftTo: location.href };
      current = location.href;
      response = await this.request(current);
    }
    throw new Error('too many redirects');
  }
}

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge };
}

function formAction(html: string, contains: string): string {
  const actions = [...html.matchAll(/<form[^>]*action="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
  const action = actions.find((a) => a.includes(contains));
  if (!action) throw new Error(`no form with action containing ${contains} in ${html}`);
  return action;
}

describe('embedded OpenID provider', () => {
  let oidc: EmbeddedOidc;
  let verifier: TokenVerifier;

  beforeAll(async () => {
    oidc = await startEmbeddedOidc({
      port: 0,
      host: '127.0.0.1',
      redirectUris: [REDIRECT_URI, SILENT_URI],
      postLogoutRedirectUris: [POST_LOGOUT_URI, SHELL],
    });
    verifier = createTokenVerifier({ issuer: oidc.issuer, audience: 'mailroom-api', orgEmailDomain: 'example.org' });
  });

  afterAll(async () => {
    await oidc?.close();
  });

  const origin = () => new URL(oidc.issuer).origin;

  function authorizeUrl(challenge: string, extra: Record<string, string> = {}) {
    const url = new URL('/auth', oidc.issuer);
    url.search = new URLSearchParams({
      client_id: 'mailroom-shell',
      response_type: 'code',
      scope: 'openid profile email',
      redirect_uri: REDIRECT_URI,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: randomBytes(8).toString('hex'),
      nonce: randomBytes(8).toString('hex'),
      ...extra,
    }).toString();
    return url;
  }

  /** Opens the authorization endpoint and arrives at our login form. */
  async function openLogin(browser: Browser, challenge: string) {
    const start = await browser.navigate(authorizeUrl(challenge).href, {}, origin());
    expect(start.response.status).toBe(200);
    expect(new URL(start.url).pathname).toMatch(/^\/interaction\/[^/]+$/);
    const html = await start.response.text();
    return { html, pageUrl: start.url };
  }

  async function submitLogin(browser: Browser, login: { html: string; pageUrl: string }, email: string, password: string) {
    const action = new URL(formAction(login.html, '/login'), login.pageUrl).href;
    return browser.navigate(
      action,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email, password }).toString(),
      },
      origin(),
    );
  }

  async function exchangeCode(code: string, codeVerifier: string, headers: Record<string, string> = {}) {
    const response = await fetch(new URL('/token', oidc.issuer), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT_URI,
        client_id: 'mailroom-shell',
        code_verifier: codeVerifier,
      }).toString(),
    });
    return response;
  }

  /** The whole sign-in: login form, automatic consent, code, tokens. */
  async function signIn(email: string, password = 'mailroom') {
    const browser = new Browser();
    const { verifier: codeVerifier, challenge } = pkce();
    const login = await openLogin(browser, challenge);
    const done = await submitLogin(browser, login, email, password);
    expect(done.leftTo, 'the flow ends at the redirect URI').toBeDefined();
    const callback = new URL(done.leftTo!);
    expect(callback.origin + callback.pathname).toBe(REDIRECT_URI);
    expect(callback.searchParams.get('error')).toBeNull();
    const code = callback.searchParams.get('code');
    expect(code).toBeTruthy();
    expect(callback.searchParams.get('iss')).toBe(oidc.issuer);
    const response = await exchangeCode(code!, codeVerifier);
    expect(response.status).toBe(200);
    const tokens = (await response.json()) as {
      access_token: string;
      id_token: string;
      refresh_token?: string;
      token_type: string;
      expires_in: number;
      scope: string;
    };
    return { browser, tokens };
  }

  it('serves discovery for its issuer', async () => {
    const response = await fetch(new URL('/.well-known/openid-configuration', oidc.issuer));
    const document = (await response.json()) as Record<string, unknown>;
    expect(document.issuer).toBe(oidc.issuer);
    expect(document.jwks_uri).toBe(oidc.jwksUri);
    expect(document.code_challenge_methods_supported).toEqual(['S256']);
    expect(document.end_session_endpoint).toBe(`${oidc.issuer}/session/end`);
  });

  it("gives each seeded role account's access token its groups, which the stack's default map makes its role (issue 27)", async () => {
    const roles = createTokenVerifier({
      issuer: oidc.issuer,
      audience: 'mailroom-api',
      orgEmailDomain: 'example.org',
      rolesClaim: EMBEDDED_ROLES_CLAIM,
      roleMap: parseRoleMap(EMBEDDED_ROLE_MAP),
    });
    for (const [email, role] of [
      ['vera@example.org', 'viewer'],
      ['eddie@example.org', 'editor'],
      ['sam@example.org', 'sender'],
      ['ada@example.org', 'admin'],
      ['mia@example.org', 'admin'],
    ] as const) {
      const { tokens } = await signIn(email);
      expect(decodeJwt(tokens.access_token).groups, email).toEqual([`mailroom-${role}s`]);
      await expect(roles.verify(tokens.access_token), email).resolves.toMatchObject({ email, role });
    }
  });

  it('renders a real login form with labelled Email and Password inputs and a Sign in button', async () => {
    const { html } = await openLogin(new Browser(), pkce().challenge);
    expect(html).toMatch(/<form method="post" action="\/interaction\/[^"]+\/login"/);
    expect(html).toContain('<label for="email">Email</label>');
    expect(html).toMatch(/<input id="email" name="email" type="email"/);
    expect(html).toContain('<label for="password">Password</label>');
    expect(html).toMatch(/<input id="password" name="password" type="password"/);
    expect(html).toMatch(/<button class="primary" type="submit">Sign in<\/button>/);
    expect(html).not.toContain('role="alert"');
  });

  it('runs authorization code + PKCE for mia and the API verifier accepts the access token', async () => {
    const { tokens } = await signIn('mia@example.org');
    expect(tokens.token_type).toBe('Bearer');

    const header = decodeProtectedHeader(tokens.access_token);
    expect(header.alg).toBe('RS256');
    expect(header.typ).toBe('at+jwt');
    const claims = decodeJwt(tokens.access_token);
    expect(claims).toMatchObject({
      iss: oidc.issuer,
      aud: 'mailroom-api',
      client_id: 'mailroom-shell',
      sub: 'mia-member',
      email: 'mia@example.org',
      email_verified: true,
      given_name: 'Mia',
      family_name: 'Member',
    });
    expect(String(claims.scope).split(' ').sort()).toEqual(['email', 'openid', 'profile']);

    // No ROLE_MAP given to this verifier: every member is admin.
    await expect(verifier.verify(tokens.access_token)).resolves.toEqual({
      email: 'mia@example.org',
      firstName: 'Mia',
      lastName: 'Member',
      role: 'admin',
    });

    // The ID token carries the profile too (conformIdTokenClaims: false).
    expect(decodeJwt(tokens.id_token)).toMatchObject({
      aud: 'mailroom-shell',
      email: 'mia@example.org',
      given_name: 'Mia',
      family_name: 'Member',
    });
  });

  it('userinfo returns given_name, family_name and email for the access token', async () => {
    const { tokens } = await signIn('MIA@example.org');
    const response = await fetch(new URL('/me', oidc.issuer), {
      headers: { authorization: `Bearer ${tokens.access_token}`, origin: SHELL },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(SHELL);
    expect(await response.json()).toEqual({
      sub: 'mia-member',
      email: 'mia@example.org',
      email_verified: true,
      given_name: 'Mia',
      family_name: 'Member',
      name: 'Mia Member',
    });

    const bad = await fetch(new URL('/me', oidc.issuer), {
      headers: { authorization: `Bearer ${tokens.access_token.slice(0, -4)}AAAA` },
    });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toContain('invalid_token');
  });

  it("otto's token is valid but the verifier rejects it with 403", async () => {
    const { tokens } = await signIn('otto@outsider.test');
    expect(decodeJwt(tokens.access_token)).toMatchObject({ email: 'otto@outsider.test', aud: 'mailroom-api' });
    const error = await verifier.verify(tokens.access_token).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect(error).toMatchObject({ status: 403, message: 'Only members of example.org can use Mailroom' });
  });

  it('a wrong password shows the form again with an error, escaping what it echoes', async () => {
    const browser = new Browser();
    const login = await openLogin(browser, pkce().challenge);
    const wrong = await submitLogin(browser, login, 'mia@example.org', 'not-the-password');
    expect(wrong.leftTo).toBeUndefined();
    expect(wrong.response.status).toBe(200);
    const html = await wrong.response.text();
    expect(html).toContain('<p class="error" role="alert">Invalid email or password.</p>');
    expect(html).toContain('value="mia@example.org"');
    expect(html).toContain('<button class="primary" type="submit">Sign in</button>');

    const evil = '"><script>alert(1)</script>@example.org';
    const again = await submitLogin(browser, { html, pageUrl: login.pageUrl }, evil, 'x');
    const echoed = await again.response.text();
    expect(echoed).not.toContain('<script>alert(1)</script>');
    expect(echoed).toContain('&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;@example.org');
    expect(again.response.headers.get('content-security-policy')).toContain("script-src 'none'");

    // still the same interaction: the right password now completes the flow
    const ok = await submitLogin(browser, { html: echoed, pageUrl: login.pageUrl }, 'mia@example.org', 'mailroom');
    expect(new URL(ok.leftTo!).searchParams.get('code')).toBeTruthy();
  });

  it('an unknown account is refused the same way', async () => {
    const browser = new Browser();
    const login = await openLogin(browser, pkce().challenge);
    const result = await submitLogin(browser, login, 'nobody@example.org', 'mailroom');
    expect(result.leftTo).toBeUndefined();
    expect(await result.response.text()).toContain('Invalid email or password.');
  });

  it('cancel returns access_denied to the client', async () => {
    const browser = new Browser();
    const login = await openLogin(browser, pkce().challenge);
    const action = new URL(formAction(login.html, '/abort'), login.pageUrl).href;
    const result = await browser.navigate(action, { method: 'POST' }, origin());
    expect(new URL(result.leftTo!).searchParams.get('error')).toBe('access_denied');
  });

  it('PKCE is required', async () => {
    const browser = new Browser();
    const url = authorizeUrl('x');
    url.searchParams.delete('code_challenge');
    url.searchParams.delete('code_challenge_method');
    const result = await browser.navigate(url.href, {}, origin());
    const back = new URL(result.leftTo!);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('error_description')).toMatch(/PKCE/);
  });

  it('a wrong code_verifier is refused at the token endpoint', async () => {
    const browser = new Browser();
    const { challenge } = pkce();
    const login = await openLogin(browser, challenge);
    const done = await submitLogin(browser, login, 'mia@example.org', 'mailroom');
    const code = new URL(done.leftTo!).searchParams.get('code')!;
    const response = await exchangeCode(code, pkce().verifier);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('silent check (prompt=none) returns a code with the session cookie and login_required without it', async () => {
    const { browser } = await signIn('mia@example.org');
    expect(browser.jar.names()).toContain('_session');

    const { verifier: codeVerifier, challenge } = pkce();
    const silent = await browser.navigate(authorizeUrl(challenge, { prompt: 'none', redirect_uri: SILENT_URI }).href, {}, origin());
    const back = new URL(silent.leftTo!);
    expect(back.origin + back.pathname).toBe(SILENT_URI);
    expect(back.searchParams.get('error')).toBeNull();
    const response = await fetch(new URL('/token', oidc.issuer), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: back.searchParams.get('code')!,
        redirect_uri: SILENT_URI,
        client_id: 'mailroom-shell',
        code_verifier: codeVerifier,
      }).toString(),
    });
    expect(response.status).toBe(200);
    const tokens = (await response.json()) as { access_token: string };
    await expect(verifier.verify(tokens.access_token)).resolves.toMatchObject({ email: 'mia@example.org' });

    const stranger = await new Browser().navigate(
      authorizeUrl(pkce().challenge, { prompt: 'none', redirect_uri: SILENT_URI }).href,
      {},
      origin(),
    );
    expect(new URL(stranger.leftTo!).searchParams.get('error')).toBe('login_required');
  });

  it('the session cookie is SameSite=Lax, HttpOnly and not Secure on http', async () => {
    const browser = new Browser();
    const { challenge } = pkce();
    const login = await openLogin(browser, challenge);
    const action = new URL(formAction(login.html, '/login'), login.pageUrl).href;
    const posted = await browser.request(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'mia@example.org', password: 'mailroom' }).toString(),
    });
    expect(posted.status).toBe(303);
    const resumed = await browser.request(new URL(posted.headers.get('location')!, action).href);
    const sessionCookie = resumed.headers.getSetCookie().find((c) => c.startsWith('_session='));
    expect(sessionCookie).toBeDefined();
    expect(sessionCookie!.toLowerCase()).toContain('samesite=lax');
    expect(sessionCookie!.toLowerCase()).toContain('httponly');
    expect(sessionCookie!.toLowerCase()).not.toContain('secure');
  });

  it('refresh tokens give new API access tokens', async () => {
    const { tokens } = await signIn('mia@example.org');
    expect(tokens.refresh_token).toBeTruthy();
    const response = await fetch(new URL('/token', oidc.issuer), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token!,
        client_id: 'mailroom-shell',
      }).toString(),
    });
    expect(response.status).toBe(200);
    const refreshed = (await response.json()) as { access_token: string };
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    await expect(verifier.verify(refreshed.access_token)).resolves.toMatchObject({ email: 'mia@example.org' });
  });

  it('CORS: the shell origin may call the token endpoint, another origin may not', async () => {
    const browser = new Browser();
    const { verifier: codeVerifier, challenge } = pkce();
    const login = await openLogin(browser, challenge);
    const done = await submitLogin(browser, login, 'mia@example.org', 'mailroom');
    const code = new URL(done.leftTo!).searchParams.get('code')!;

    const evil = await exchangeCode(code, codeVerifier, { origin: 'http://localhost:6666' });
    expect(evil.status).toBe(400);
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();

    const ok = await exchangeCode(code, codeVerifier, { origin: SHELL });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(SHELL);
  });

  it('RP-initiated logout ends the session and returns to the shell', async () => {
    const { browser, tokens } = await signIn('mia@example.org');
    const endUrl = new URL('/session/end', oidc.issuer);
    endUrl.search = new URLSearchParams({
      id_token_hint: tokens.id_token,
      post_logout_redirect_uri: POST_LOGOUT_URI,
      state: 'bye',
    }).toString();
    const confirm = await browser.navigate(endUrl.href, {}, origin());
    expect(confirm.response.status).toBe(200);
    const html = await confirm.response.text();
    // the page submits itself (no question for our own client) and has a Sign out button without scripts
    expect(html).toContain('id="op.logoutForm"');
    expect(html).toContain("i.name='logout'");
    expect(confirm.response.headers.get('content-security-policy')).toMatch(/script-src 'sha256-/);

    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)![1]!;
    const action = new URL(formAction(html, '/session/end'), confirm.url).href;
    const out = await browser.navigate(
      action,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ xsrf, logout: 'yes' }).toString(),
      },
      origin(),
    );
    const back = new URL(out.leftTo!);
    expect(back.origin + back.pathname).toBe(POST_LOGOUT_URI);
    expect(back.searchParams.get('state')).toBe('bye');

    const silent = await browser.navigate(authorizeUrl(pkce().challenge, { prompt: 'none', redirect_uri: SILENT_URI }).href, {}, origin());
    expect(new URL(silent.leftTo!).searchParams.get('error')).toBe('login_required');
  });

  it('an unknown interaction shows an expired page, not a stack trace', async () => {
    const response = await fetch(new URL('/interaction/nope', oidc.issuer));
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('Sign-in expired');
    expect(html).not.toMatch(/at .*\.js:\d+/);
  });
});

describe('embedded OpenID provider key persistence', () => {
  it('keeps its signing key in jwksFile across restarts', async () => {
    const { mkdtemp, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = await mkdtemp(join(tmpdir(), 'mailroom-oidc-'));
    try {
      const jwksFile = join(dir, 'oidc-jwks.json');
      const first = await startEmbeddedOidc({ port: 0, host: '127.0.0.1', redirectUris: [REDIRECT_URI], jwksFile });
      const firstKeys = await (await fetch(first.jwksUri)).json();
      await first.close();
      const second = await startEmbeddedOidc({ port: 0, host: '127.0.0.1', redirectUris: [REDIRECT_URI], jwksFile });
      const secondKeys = await (await fetch(second.jwksUri)).json();
      await second.close();
      expect(secondKeys).toEqual(firstKeys);
      expect(JSON.stringify(secondKeys)).not.toContain('"d"');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
