/**
 * Test tokens: a local JWKS (one RS256 key pair per process), a verifier that trusts it, and `mintToken` for member
 * tokens and every kind of bad token the API must reject.
 *
 *   const app = createApp({ ...deps, verifier: testVerifier() });
 *   await request(app).get('/api/audiences').set('Authorization', `Bearer ${await mintToken()}`);
 */
import {
  base64url,
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  SignJWT,
  type CryptoKey,
  type JSONWebKeySet,
  type JWK,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';

import type { RoleMap } from '../../src/auth/roles.js';
import { createTokenVerifier, type TokenVerifier } from '../../src/auth/verifier.js';

export const testIssuer = 'http://localhost/mailroom-test-issuer';
export const testAudience = 'mailroom-api';
export const testOrgEmailDomain = 'example.org';
export const testKid = 'mailroom-test-key-1';

export const testMember = {
  email: 'mia@example.org',
  firstName: 'Mia',
  lastName: 'Member',
} as const;

type KeyPair = { privateKey: CryptoKey; publicJwk: JWK };

async function makeKeyPair(kid: string): Promise<KeyPair> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  return { privateKey, publicJwk };
}

let trustedKey: Promise<KeyPair> | undefined;
let otherKey: Promise<KeyPair> | undefined;

/** The trusted key pair (generated once per process). */
function trusted(): Promise<KeyPair> {
  return (trustedKey ??= makeKeyPair(testKid));
}

/** A key pair the verifier does NOT trust; it uses the SAME kid, so only the signature tells it apart. */
function other(): Promise<KeyPair> {
  return (otherKey ??= makeKeyPair(testKid));
}

/** The public JWKS the test verifier trusts (serve it over HTTP to test remote discovery). */
export async function testJwks(): Promise<JSONWebKeySet> {
  return { keys: [(await trusted()).publicJwk] };
}

let localKeySet: Promise<JWTVerifyGetKey> | undefined;

/** jose key resolver over the local JWKS (no network). */
export const testKeyResolver: JWTVerifyGetKey = async (header, token) => {
  localKeySet ??= testJwks().then((jwks) => createLocalJWKSet(jwks));
  return (await localKeySet)(header, token);
};

/** A verifier trusting the local JWKS, with the test issuer, audience and organisation domain. */
export function testVerifier(
  overrides: Partial<{ issuer: string; audience: string; orgEmailDomain: string; rolesClaim: string; roleMap: RoleMap }> = {},
): TokenVerifier {
  return createTokenVerifier({
    issuer: testIssuer,
    audience: testAudience,
    orgEmailDomain: testOrgEmailDomain,
    ...overrides,
    jwks: testKeyResolver,
  });
}

export type MintOptions = {
  email?: string;
  emailVerified?: boolean;
  givenName?: string;
  familyName?: string;
  /** Extra or replacing claims; a value of `undefined` removes the claim. */
  claims?: Record<string, unknown>;
  issuer?: string;
  audience?: string | string[];
  /** Lifetime in seconds from now (default 600). */
  expiresIn?: number;
  /** Shortcut: a token that expired one hour ago. */
  expired?: boolean;
  /** 'trusted' (default), 'other' (an untrusted key with the trusted kid), or 'none' (unsigned, `alg: none`). */
  key?: 'trusted' | 'other' | 'none';
  /** Override the header's kid (e.g. an unknown one). */
  kid?: string;
};

/** A signed JWT like the identity provider's access token; by default a valid token for mia@example.org. */
export async function mintToken(options: MintOptions = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const lifetime = options.expired ? -3600 : (options.expiresIn ?? 600);
  const payload: JWTPayload = {
    iss: options.issuer ?? testIssuer,
    aud: options.audience ?? testAudience,
    sub: `sub-${options.email ?? testMember.email}`,
    iat: options.expired ? now - 7200 : now,
    exp: now + lifetime,
    scope: 'openid profile email',
    client_id: 'mailroom-shell',
    email: options.email ?? testMember.email,
    email_verified: options.emailVerified ?? true,
    given_name: options.givenName ?? testMember.firstName,
    family_name: options.familyName ?? testMember.lastName,
  };
  for (const [name, value] of Object.entries(options.claims ?? {})) {
    if (value === undefined) delete payload[name];
    else payload[name] = value;
  }
  const kid = options.kid ?? testKid;

  if (options.key === 'none') {
    const header = { alg: 'none', typ: 'JWT', kid };
    const encode = (value: object) => base64url.encode(JSON.stringify(value));
    return `${encode(header)}.${encode(payload)}.`;
  }

  const { privateKey } = options.key === 'other' ? await other() : await trusted();
  return new SignJWT(payload).setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid }).sign(privateKey);
}

/** `Bearer <token>` for a member (or for the given mint options). */
export async function bearer(options: MintOptions = {}): Promise<string> {
  return `Bearer ${await mintToken(options)}`;
}
