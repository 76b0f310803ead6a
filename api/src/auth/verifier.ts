/**
 * Bearer-token verification for the API (docs/architecture.md, Sign-in).
 *
 * The API trusts only a JWT it verifies itself: signature against the identity provider's JWKS (remote, found through
 * OpenID discovery unless `jwksUri` is given), issuer, audience, expiry, an asymmetric algorithm, an issue time (`iat`)
 * neither in the future nor older than the maximum token age (a stolen long-lived token stops working); then the member rules:
 * `email_verified === true` and the part of the e-mail after the last '@', lower-cased, equal to the organisation domain.
 */
import { createRemoteJWKSet, decodeProtectedHeader, errors as joseErrors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';

import { roleFromClaims, type Role, type RoleMap } from './roles.js';

/**
 * Who calls: a signed-in member, or an API key acting under its name (then `apiKey` is set, and `email` is the name
 * the activity log records). `role` is what the contract's x-mailroom-role is checked against.
 */
export type Member = {
  email: string;
  firstName: string;
  lastName: string;
  role: Role;
  apiKey?: { id: number; name: string; scopes: readonly string[] };
};

/** A rejected token: 401 (not authenticated) or 403 (authenticated, but not a member). The message is safe to show. */
export class AuthError extends Error {
  readonly status: 401 | 403;
  constructor(status: 401 | 403, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AuthError';
    this.status = status;
  }
}

/**
 * The identity provider could not be reached (discovery or JWKS fetch failed). Not the caller's fault, so not a 401:
 * the error handler turns it into a 5xx without internals. The message is generic on purpose.
 */
export class AuthUnavailableError extends Error {
  readonly status = 503 as const;
  constructor(options?: { cause?: unknown }) {
    super('Sign-in service unavailable', options);
    this.name = 'AuthUnavailableError';
  }
}

export const ALLOWED_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'] as const;
const CLOCK_TOLERANCE_SECONDS = 5;
/** The identity provider's access tokens live minutes; a day covers any sane lifetime. */
export const DEFAULT_MAX_TOKEN_AGE_SECONDS = 24 * 60 * 60;
const DISCOVERY_TIMEOUT_MS = 5000;

export type TokenVerifierOptions = {
  issuer: string;
  audience: string;
  orgEmailDomain: string;
  /** JWKS location; when absent it is read from `${issuer}/.well-known/openid-configuration`. */
  jwksUri?: string;
  /** Key resolver used instead of a remote JWKS (tests: jose `createLocalJWKSet`). */
  jwks?: JWTVerifyGetKey;
  /** Tokens issued longer ago than this are refused whatever their expiry (default 24 hours). */
  maxTokenAgeSeconds?: number;
  /** The claim holding the member's roles or groups (a dotted path); read only when roleMap is not empty. */
  rolesClaim?: string;
  /** Claim value → role. Empty or absent: every member is admin (the spec's behaviour). */
  roleMap?: RoleMap;
};

export type TokenVerifier = { verify(token: string): Promise<Member> };

export function notMemberMessage(domain: string): string {
  return `Only members of ${domain} can use Mailroom`;
}

/** The e-mail's domain as the rules define it: everything after the LAST '@', lower-cased ('' when there is none). */
export function emailDomain(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0 ? '' : email.slice(at + 1).toLowerCase();
}

function discoveryUrl(issuer: string): string {
  return `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
}

async function discoverJwksUri(issuer: string): Promise<string> {
  const response = await fetch(discoveryUrl(issuer), {
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS),
  });
  if (!response.ok) throw new Error(`OpenID discovery answered ${response.status}`);
  const document = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
  if (document.issuer !== issuer) throw new Error('OpenID discovery issuer does not match the configured issuer');
  if (typeof document.jwks_uri !== 'string' || !document.jwks_uri) throw new Error('OpenID discovery has no jwks_uri');
  return document.jwks_uri;
}

function namesOf(payload: JWTPayload, email: string): { firstName: string; lastName: string } {
  const given = typeof payload.given_name === 'string' ? payload.given_name.trim() : '';
  const family = typeof payload.family_name === 'string' ? payload.family_name.trim() : '';
  if (given || family) return { firstName: given, lastName: family };
  const name = typeof payload.name === 'string' ? payload.name.trim() : '';
  if (name) {
    const space = name.indexOf(' ');
    return space < 0 ? { firstName: name, lastName: '' } : { firstName: name.slice(0, space), lastName: name.slice(space + 1).trim() };
  }
  return { firstName: email.slice(0, email.lastIndexOf('@')), lastName: '' };
}

/** Errors that mean "we could not get the keys", as opposed to "the token is bad". */
function isKeySourceFailure(error: unknown): boolean {
  if (error instanceof joseErrors.JWKSTimeout || error instanceof joseErrors.JWKSInvalid) return true;
  if (error instanceof joseErrors.JOSEError) {
    // jose reports a non-200 JWKS response as a plain JOSEError.
    return error.constructor === joseErrors.JOSEError;
  }
  // fetch() network failures (TypeError 'fetch failed'), aborts.
  return error instanceof TypeError || (error instanceof Error && error.name === 'AbortError');
}

export function createTokenVerifier(options: TokenVerifierOptions): TokenVerifier {
  const { issuer, audience } = options;
  const domain = options.orgEmailDomain.trim().toLowerCase();
  if (!issuer) throw new Error('createTokenVerifier: issuer is required');
  if (!audience) throw new Error('createTokenVerifier: audience is required');
  if (!domain) throw new Error('createTokenVerifier: orgEmailDomain is required');

  let keySource: JWTVerifyGetKey | undefined = options.jwks ?? (options.jwksUri ? createRemoteJWKSet(new URL(options.jwksUri)) : undefined);
  let discovering: Promise<JWTVerifyGetKey> | undefined;

  function keys(): Promise<JWTVerifyGetKey> {
    if (keySource) return Promise.resolve(keySource);
    discovering ??= discoverJwksUri(issuer).then(
      (uri) => {
        keySource = createRemoteJWKSet(new URL(uri));
        return keySource;
      },
      (error: unknown) => {
        discovering = undefined; // try discovery again on the next request
        throw new AuthUnavailableError({ cause: error });
      },
    );
    return discovering;
  }

  async function verify(token: string): Promise<Member> {
    if (typeof token !== 'string' || !token.trim()) throw new AuthError(401, 'Missing bearer token');

    // Cheap structural checks first, so garbage is a 401 even when the provider is unreachable.
    let alg: unknown;
    try {
      alg = decodeProtectedHeader(token).alg;
    } catch {
      throw new AuthError(401, 'Invalid token');
    }
    if (typeof alg !== 'string' || !(ALLOWED_ALGORITHMS as readonly string[]).includes(alg)) {
      throw new AuthError(401, 'Invalid token');
    }

    const getKey = await keys();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, getKey, {
        issuer,
        audience,
        algorithms: [...ALLOWED_ALGORITHMS],
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        // Also requires `iat`, and refuses one in the future (beyond the clock tolerance).
        maxTokenAge: options.maxTokenAgeSeconds ?? DEFAULT_MAX_TOKEN_AGE_SECONDS,
        requiredClaims: ['exp'],
      }));
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw new AuthError(401, 'Token expired', { cause: error });
      if (isKeySourceFailure(error)) throw new AuthUnavailableError({ cause: error });
      throw new AuthError(401, 'Invalid token', { cause: error });
    }

    const email = typeof payload.email === 'string' ? payload.email.trim() : '';
    if (email.lastIndexOf('@') < 1 || emailDomain(email) !== domain) throw new AuthError(403, notMemberMessage(domain));
    if (payload.email_verified !== true) throw new AuthError(403, 'Your e-mail address is not verified');

    const role = roleFromClaims(payload, options.rolesClaim ?? 'roles', options.roleMap ?? new Map());
    return { email: email.toLowerCase(), ...namesOf(payload, email), role };
  }

  return { verify };
}
