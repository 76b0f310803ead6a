/**
 * The embedded OpenID provider (development and tests; docs/architecture.md), built on `oidc-provider` v9.
 *
 * - One public client (`mailroom-shell`, PKCE required, authorization code + refresh token).
 * - Access tokens are JWTs for the API: resource indicator `urn:mailroom:api` is the default resource, its audience is
 *   `mailroom-api`, RS256, and they carry `email`, `email_verified`, `given_name`, `family_name`.
 * - Our own login page (a real HTML form) at `/interaction/:uid`; consent for our own client is granted automatically.
 * - RP-initiated logout (`/session/end`) signs out without asking when the request comes from our client.
 * - `/me` (userinfo) also answers for the API's JWT access token, like Keycloak does, so the shell can load the profile
 *   with the one access token it holds (oidc-provider itself only accepts userinfo-audience tokens there).
 * - Keys: an RS256 key generated at start; pass `jwksFile` (the stack uses `.data/oidc-jwks.json`) to keep it across
 *   restarts so tokens already issued stay verifiable. Sessions and grants live in memory.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';

import { createLocalJWKSet, exportJWK, generateKeyPair, jwtVerify, type JWK } from 'jose';
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';

import { createMemoryAdapter } from './oidc-adapter.js';
import { accountClaims, authenticateAccount, findAccountById, SEEDED_ACCOUNTS, type EmbeddedAccount } from './oidc-accounts.js';

export const SHELL_CLIENT_ID = 'mailroom-shell';
export const API_AUDIENCE = 'mailroom-api';
/** The resource indicator (RFC 8707 wants an absolute URI) whose access tokens carry `aud: mailroom-api`. */
export const API_RESOURCE = 'urn:mailroom:api';
const SCOPES = 'openid profile email';

export type EmbeddedOidcOptions = {
  /** Port to listen on; 0 picks a free one. */
  port: number;
  /** Issuer URL; default `http://localhost:<port>`. */
  issuer?: string;
  /** Interface to listen on; default all interfaces (like the other dev servers). */
  host?: string;
  redirectUris: string[];
  postLogoutRedirectUris?: string[];
  /** Origins allowed to call the token/userinfo endpoints from the browser, besides the redirect URIs' origins. */
  corsOrigins?: string[];
  accounts?: readonly EmbeddedAccount[];
  clientId?: string;
  audience?: string;
  /** Access token lifetime in seconds (default 900). */
  accessTokenTtl?: number;
  /** Where to keep the signing key (JWKS with the private key) across restarts; default: a fresh key per start. */
  jwksFile?: string;
};

export type EmbeddedOidc = {
  issuer: string;
  jwksUri: string;
  port: number;
  clientId: string;
  audience: string;
  provider: Provider;
  close(): Promise<void>;
};

// ---------------------------------------------------------------------------------------------------------------------
// HTML

const escapeHtml = (value: string): string => value.replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE = `
  :root{color-scheme:light dark;font-family:"Segoe UI",system-ui,-apple-system,sans-serif}
  body{margin:0;min-height:100vh;display:grid;place-items:center;background:#f5f5f5;color:#242424}
  main{width:min(360px,calc(100vw - 32px));background:#fff;border-radius:8px;padding:28px 28px 20px;
    box-shadow:0 2px 4px rgba(0,0,0,.14),0 0 2px rgba(0,0,0,.12)}
  h1{font-size:20px;font-weight:600;margin:0 0 4px}
  p.sub{margin:0 0 20px;color:#616161;font-size:14px}
  label{display:block;font-size:14px;font-weight:600;margin:12px 0 4px}
  input{box-sizing:border-box;width:100%;height:36px;padding:0 10px;font:inherit;border:1px solid #d1d1d1;
    border-bottom-color:#616161;border-radius:4px;background:#fff;color:inherit}
  input:focus{outline:2px solid #0f6cbd;outline-offset:-1px}
  button{font:inherit;font-weight:600;cursor:pointer;border-radius:4px;height:36px;padding:0 16px}
  button.primary{width:100%;margin-top:20px;border:0;background:#0f6cbd;color:#fff}
  button.primary:hover{background:#115ea3}
  button.link{border:0;background:none;color:#0f6cbd;padding:0;height:auto;margin-top:14px;font-weight:400}
  .error{margin:0 0 8px;padding:8px 12px;border-radius:4px;background:#fdf3f4;color:#b10e1c;font-size:14px}
  @media (prefers-color-scheme:dark){body{background:#1f1f1f;color:#fff}main{background:#292929}
    input{background:#1f1f1f;border-color:#666}p.sub{color:#adadad}.error{background:#3f1011;color:#ff9a9e}}
`;

/** No scripts except the given inline one, inline styles, never framed. */
function cspFor(script?: string): string {
  const scriptSrc = script ? `'sha256-${createHash('sha256').update(script).digest('base64')}'` : "'none'";
  return `default-src 'none'; style-src 'unsafe-inline'; script-src ${scriptSrc}; base-uri 'none'; frame-ancestors 'none'`;
}

function page(title: string, body: string, script?: string): { html: string; csp: string } {
  const scriptTag = script ? `<script>${script}</script>` : '';
  const html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
${scriptTag}
</body>
</html>`;
  return { html, csp: cspFor(script) };
}

function loginPage(
  uid: string,
  options: { email?: string; error?: string; clientName: string },
): {
  html: string;
  csp: string;
} {
  const error = options.error ? `<p class="error" role="alert">${escapeHtml(options.error)}</p>` : '';
  const action = `/interaction/${encodeURIComponent(uid)}`;
  return page(
    'Sign in - Mailroom',
    `<h1>Sign in</h1>
<p class="sub">to continue to ${escapeHtml(options.clientName)}</p>
${error}
<form method="post" action="${action}/login" autocomplete="on">
  <label for="email">Email</label>
  <input id="email" name="email" type="email" autocomplete="username" required autofocus value="${escapeHtml(options.email ?? '')}">
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required>
  <button class="primary" type="submit">Sign in</button>
</form>
<form method="post" action="${action}/abort">
  <button class="link" type="submit">Cancel</button>
</form>`,
  );
}

function send(res: ServerResponse, status: number, content: { html: string; csp: string }): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': content.csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  });
  res.end(content.html);
}

function sendLogin(res: ServerResponse, status: number, uid: string, options: Parameters<typeof loginPage>[1]): void {
  send(res, status, loginPage(uid, options));
}

function sendProblem(res: ServerResponse, status: number, title: string, message: string): void {
  send(res, status, page(title, `<h1>${escapeHtml(title)}</h1><p class="sub">${escapeHtml(message)}</p>`));
}

// ---------------------------------------------------------------------------------------------------------------------
// Keys

type PrivateJwks = { keys: JWK[] };

async function generateSigningKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid: `mailroom-${randomBytes(6).toString('hex')}`, alg: 'RS256', use: 'sig' };
}

async function loadSigningKeys(file: string | undefined): Promise<PrivateJwks> {
  if (file) {
    try {
      const stored = JSON.parse(await readFile(file, 'utf8')) as PrivateJwks;
      if (Array.isArray(stored.keys) && stored.keys.length > 0 && stored.keys.every((k) => k.kty === 'RSA' && k.d)) {
        return stored;
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  const jwks = { keys: [await generateSigningKey()] };
  if (file) {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, `${JSON.stringify(jwks, null, 2)}\n`, { mode: 0o600 });
  }
  return jwks;
}

function publicJwk(jwk: JWK): JWK {
  const { kty, n, e, kid, alg, use } = jwk;
  return { kty, n, e, kid, alg, use };
}

// ---------------------------------------------------------------------------------------------------------------------
// HTTP helpers

async function readForm(req: IncomingMessage, limit = 16 * 1024): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw Object.assign(new Error('Request body too large'), { status: 413 });
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function originOf(uri: string): string | undefined {
  return URL.parse(uri)?.origin;
}

// ---------------------------------------------------------------------------------------------------------------------

export async function startEmbeddedOidc(options: EmbeddedOidcOptions): Promise<EmbeddedOidc> {
  const server: Server = createServer();
  try {
    return await start(server, options);
  } catch (error) {
    server.closeAllConnections();
    server.close();
    throw error;
  }
}

async function start(server: Server, options: EmbeddedOidcOptions): Promise<EmbeddedOidc> {
  const accounts = options.accounts ?? SEEDED_ACCOUNTS;
  const clientId = options.clientId ?? SHELL_CLIENT_ID;
  const audience = options.audience ?? API_AUDIENCE;
  const accessTokenTtl = options.accessTokenTtl ?? 900;
  const postLogoutRedirectUris = options.postLogoutRedirectUris ?? [];
  const allowedOrigins = new Set(
    [...options.redirectUris, ...postLogoutRedirectUris, ...(options.corsOrigins ?? [])]
      .map(originOf)
      .filter((origin): origin is string => Boolean(origin)),
  );

  // Listen first so that port 0 resolves to a real port before the issuer is fixed.
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => {
    res.writeHead(503).end();
  };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => handler(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const issuer = (options.issuer ?? `http://localhost:${port}`).replace(/\/+$/, '');

  const signing = await loadSigningKeys(options.jwksFile);
  const localKeys = createLocalJWKSet({ keys: signing.keys.map(publicJwk) });

  const configuration: Configuration = {
    adapter: createMemoryAdapter(),
    clients: [
      {
        client_id: clientId,
        client_name: 'Mailroom',
        application_type: 'web',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: options.redirectUris,
        post_logout_redirect_uris: postLogoutRedirectUris,
      },
    ],
    jwks: { keys: signing.keys as NonNullable<Configuration['jwks']>['keys'] },
    pkce: { required: () => true },
    scopes: ['openid', 'offline_access', 'profile', 'email'],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['given_name', 'family_name', 'name'],
    },
    // Put the granted claims in the ID token too (the shell may read the profile from it).
    conformIdTokenClaims: false,
    async findAccount(_ctx, sub) {
      const account = findAccountById(accounts, sub);
      if (!account) return undefined;
      return { accountId: account.accountId, claims: () => accountClaims(account) };
    },
    async extraTokenClaims(_ctx, token) {
      if (token.kind !== 'AccessToken' || !token.accountId) return undefined;
      const account = findAccountById(accounts, token.accountId);
      if (!account) return undefined;
      const { email, email_verified, given_name, family_name, name, groups } = accountClaims(account);
      return { email, email_verified, given_name, family_name, name, groups };
    },
    features: {
      devInteractions: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx, _client, oneOf) => oneOf ?? API_RESOURCE,
        useGrantedResource: () => true,
        getResourceServerInfo(_ctx, resourceIndicator) {
          if (resourceIndicator !== API_RESOURCE) throw new errors.InvalidTarget();
          return {
            scope: SCOPES,
            audience,
            accessTokenTTL: accessTokenTtl,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource(ctx: KoaContextWithOIDC, form: string) {
          // Our own client asked to sign out (id_token_hint / client_id): no confirmation, like Keycloak with a hint.
          const automatic = Boolean(ctx.oidc.client);
          const script = automatic
            ? "document.addEventListener('DOMContentLoaded',function(){var f=document.getElementById('op.logoutForm');" +
              "var i=document.createElement('input');i.type='hidden';i.name='logout';i.value='yes';f.appendChild(i);f.submit();});"
            : undefined;
          const content = page(
            'Sign out - Mailroom',
            `<h1>Sign out</h1>
<p class="sub">${automatic ? 'Signing you out of Mailroom...' : 'Do you want to sign out of Mailroom?'}</p>
${form}
<button class="primary" autofocus type="submit" form="op.logoutForm" name="logout" value="yes">Sign out</button>`,
            script,
          );
          ctx.set('content-security-policy', content.csp);
          ctx.type = 'html';
          ctx.body = content.html;
        },
        postLogoutSuccessSource(ctx: KoaContextWithOIDC) {
          const content = page('Signed out - Mailroom', '<h1>Signed out</h1><p class="sub">You have signed out of Mailroom.</p>');
          ctx.set('content-security-policy', content.csp);
          ctx.type = 'html';
          ctx.body = content.html;
        },
      },
      userinfo: { enabled: true },
      revocation: { enabled: true },
    },
    // Refresh tokens for our client even without offline_access; they end with the provider session.
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    interactions: {
      url: (_ctx, interaction) => `/interaction/${interaction.uid}`,
    },
    clientBasedCORS: (_ctx, origin) => allowedOrigins.has(origin),
    cookies: {
      keys: [randomBytes(32).toString('base64url'), randomBytes(32).toString('base64url')],
      // Lax works for the silent check: the shell (localhost:8080) and the provider (localhost:4000) are the same site.
      // `secure` is not forced; oidc-provider sets it only when the request itself is https.
      long: { httpOnly: true, sameSite: 'lax' },
      short: { httpOnly: true, sameSite: 'lax' },
    },
    ttl: {
      AccessToken: accessTokenTtl,
      AuthorizationCode: 60,
      IdToken: 3600,
      Interaction: 3600,
      Grant: 24 * 3600,
      Session: 24 * 3600,
      RefreshToken: 24 * 3600,
    },
    renderError(ctx, out) {
      const message = out.error_description ?? out.error ?? 'The request could not be completed.';
      const content = page(
        'Sign-in problem - Mailroom',
        `<h1>Sign-in problem</h1><p class="sub">${escapeHtml(String(message))}</p>
<p class="sub">Go back to Mailroom and try signing in again.</p>`,
      );
      ctx.set('content-security-policy', content.csp);
      ctx.type = 'html';
      ctx.body = content.html;
    },
  };

  const provider = new Provider(issuer, configuration);
  provider.proxy = false;
  const callback = provider.callback();

  async function interaction(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const match = /^\/interaction\/([^/]+)(?:\/(login|abort))?$/.exec(path);
    if (!match) return sendProblem(res, 404, 'Not found', 'There is nothing here.');
    const action = match[2];

    let details: Awaited<ReturnType<Provider['interactionDetails']>>;
    try {
      details = await provider.interactionDetails(req, res);
    } catch (error) {
      if (error instanceof errors.SessionNotFound) {
        return sendProblem(res, 400, 'Sign-in expired', 'This sign-in request has expired. Go back to Mailroom and sign in again.');
      }
      throw error;
    }
    if (details.uid !== decodeURIComponent(match[1]!)) {
      return sendProblem(res, 400, 'Sign-in expired', 'This sign-in request has expired. Go back to Mailroom and sign in again.');
    }
    const client = await provider.Client.find(String(details.params.client_id ?? ''));
    const clientName = client?.clientName ?? 'Mailroom';

    if (req.method === 'GET' && !action) {
      if (details.prompt.name === 'login') {
        return sendLogin(res, 200, details.uid, { clientName });
      }
      if (details.prompt.name === 'consent') {
        return grantConsent(req, res, details);
      }
      return sendProblem(res, 400, 'Sign-in problem', 'This sign-in step is not supported.');
    }

    if (req.method === 'POST' && action === 'login') {
      if (details.prompt.name !== 'login') {
        return sendProblem(res, 400, 'Sign-in problem', 'This sign-in step is not expected now.');
      }
      const form = await readForm(req);
      const email = (form.get('email') ?? '').trim();
      const account = authenticateAccount(accounts, email, form.get('password') ?? '');
      if (!account) {
        return sendLogin(res, 200, details.uid, { clientName, email, error: 'Invalid email or password.' });
      }
      return provider.interactionFinished(
        req,
        res,
        { login: { accountId: account.accountId, amr: ['pwd'] } },
        { mergeWithLastSubmission: false },
      );
    }

    if (req.method === 'POST' && action === 'abort') {
      return provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'The sign-in was cancelled.' },
        { mergeWithLastSubmission: false },
      );
    }

    res.writeHead(405, { allow: 'GET, POST' }).end();
  }

  /** Our own client: grant what it asked for (openid profile email and the API resource) without asking. */
  async function grantConsent(
    req: IncomingMessage,
    res: ServerResponse,
    details: Awaited<ReturnType<Provider['interactionDetails']>>,
  ): Promise<void> {
    const accountId = details.session?.accountId;
    if (!accountId) return sendProblem(res, 400, 'Sign-in problem', 'Sign in first.');
    const grant = details.grantId
      ? await provider.Grant.find(details.grantId)
      : new provider.Grant({ accountId, clientId: String(details.params.client_id) });
    if (!grant) return sendProblem(res, 400, 'Sign-in expired', 'Go back to Mailroom and sign in again.');

    const missing = details.prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    grant.addOIDCScope(SCOPES);
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    grant.addResourceScope(API_RESOURCE, SCOPES);
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
      grant.addResourceScope(indicator, scopes.join(' '));
    }
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: details.grantId ? {} : { grantId } }, { mergeWithLastSubmission: true });
  }

  /**
   * userinfo for the API's JWT access token (aud mailroom-api), as Keycloak allows; other tokens go to oidc-provider.
   * Returns false when the request is not one for us.
   */
  async function jwtUserinfo(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const header = req.headers.authorization ?? '';
    const token = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
    if (!token || token.split('.').length !== 3) return false;

    const origin = req.headers.origin;
    const cors: Record<string, string> = { vary: 'Origin' };
    if (origin && allowedOrigins.has(origin)) {
      cors['access-control-allow-origin'] = origin;
      cors['access-control-expose-headers'] = 'WWW-Authenticate';
    }
    try {
      const { payload } = await jwtVerify(token, localKeys, { issuer, audience, algorithms: ['RS256'] });
      const account = typeof payload.sub === 'string' ? findAccountById(accounts, payload.sub) : undefined;
      if (!account) throw new Error('unknown account');
      const scopes = new Set(typeof payload.scope === 'string' ? payload.scope.split(' ') : []);
      if (!scopes.has('openid')) throw new Error('no openid scope');
      const all = accountClaims(account);
      const claims: Record<string, unknown> = { sub: all.sub };
      if (scopes.has('email')) Object.assign(claims, { email: all.email, email_verified: all.email_verified });
      if (scopes.has('profile')) {
        Object.assign(claims, { given_name: all.given_name, family_name: all.family_name, name: all.name });
      }
      res.writeHead(200, { ...cors, 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      res.end(JSON.stringify(claims));
    } catch {
      res.writeHead(401, {
        ...cors,
        'content-type': 'application/json; charset=utf-8',
        'www-authenticate': 'Bearer realm="mailroom", error="invalid_token", error_description="invalid token provided"',
      });
      res.end(JSON.stringify({ error: 'invalid_token', error_description: 'invalid token provided' }));
    }
    return true;
  }

  handler = (req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const run = async () => {
      if (path === '/interaction' || path.startsWith('/interaction/')) return interaction(req, res, path);
      if (path === '/me' && (req.method === 'GET' || req.method === 'POST') && (await jwtUserinfo(req, res))) return;
      await callback(req, res);
    };
    run().catch((error: unknown) => {
      const status = (error as { status?: unknown }).status === 413 ? 413 : 500;
      if (status === 500) console.error('[embedded-oidc]', error);
      if (!res.headersSent) sendProblem(res, status, 'Sign-in problem', 'Something went wrong. Try again.');
      else res.end();
    });
  };

  return {
    issuer,
    jwksUri: provider.urlFor('jwks'),
    port,
    clientId,
    audience,
    provider,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
