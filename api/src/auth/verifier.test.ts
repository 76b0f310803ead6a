import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import express, { type NextFunction, type Request, type Response } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  mintToken,
  testAudience,
  testIssuer,
  testJwks,
  testKeyResolver,
  testVerifier,
  type MintOptions,
} from '../../test/support/tokens.js';
import { bearerAuthHandler, memberOf, requireMember } from './middleware.js';
import { AuthError, AuthUnavailableError, createTokenVerifier, emailDomain, type TokenVerifier } from './verifier.js';

const NOT_MEMBER = 'Only members of example.org can use Mailroom';

/** A tiny app wired like the real one: express-openapi-validator's bearerAuth handler + an error handler answering { message }. */
function tinyApp(verifier: TokenVerifier) {
  const app = express();
  app.use(express.json());
  app.use(
    OpenApiValidator.middleware({
      apiSpec: {
        openapi: '3.0.3',
        info: { title: 'auth test', version: '1.0.0' },
        security: [{ bearerAuth: [] }],
        paths: {
          '/api/me': {
            get: {
              // An operation of openapi.yaml's role table (auth/access.ts): one missing from it is refused to everyone.
              operationId: 'getCaller',
              responses: {
                '200': {
                  description: 'the member',
                  content: {
                    'application/json': {
                      schema: {
                        type: 'object',
                        required: ['email', 'firstName', 'lastName'],
                        properties: {
                          email: { type: 'string' },
                          firstName: { type: 'string' },
                          lastName: { type: 'string' },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
        },
        components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      },
      validateRequests: true,
      validateResponses: true,
      validateSecurity: { handlers: { bearerAuth: bearerAuthHandler(verifier) } },
    }),
  );
  app.get('/api/me', (req, res) => {
    res.json(memberOf(req));
  });
  app.use(errorHandler);
  return app;
}

/** The same check as a plain middleware, without the OpenAPI validator. */
function plainApp(verifier: TokenVerifier) {
  const app = express();
  app.get('/plain/me', requireMember(verifier), (req, res) => {
    res.json(memberOf(req));
  });
  app.use(errorHandler);
  return app;
}

function errorHandler(err: unknown, _req: Request, res: Response, _next: NextFunction) {
  const status = (err as { status?: unknown }).status;
  if (typeof status === 'number' && status >= 400 && status < 500 && err instanceof Error) {
    res.status(status).json({ message: err.message });
  } else {
    res.status(500).json({ message: 'Internal server error' });
  }
}

type Rejection = {
  name: string;
  token: () => Promise<string>;
  status: 401 | 403;
  message: string;
};

const mint = (options: MintOptions) => () => mintToken(options);
const nowSeconds = () => Math.floor(Date.now() / 1000);
const HOUR = 3600;

const rejections: Rejection[] = [
  { name: 'wrong issuer', token: mint({ issuer: 'http://localhost/another-issuer' }), status: 401, message: 'Invalid token' },
  { name: 'wrong audience', token: mint({ audience: 'another-api' }), status: 401, message: 'Invalid token' },
  { name: 'expired', token: mint({ expired: true }), status: 401, message: 'Token expired' },
  {
    name: 'issued in the future (iat a minute ahead)',
    token: () => mintToken({ claims: { iat: nowSeconds() + 60 } }),
    status: 401,
    message: 'Invalid token',
  },
  {
    name: 'issued 25 hours ago, though not expired',
    token: () => mintToken({ claims: { iat: nowSeconds() - 25 * HOUR } }),
    status: 401,
    message: 'Token expired',
  },
  { name: 'no iat', token: mint({ claims: { iat: undefined } }), status: 401, message: 'Invalid token' },
  { name: 'alg: none (unsigned)', token: mint({ key: 'none' }), status: 401, message: 'Invalid token' },
  { name: 'unknown key id', token: mint({ kid: 'no-such-key' }), status: 401, message: 'Invalid token' },
  { name: 'signature by another key', token: mint({ key: 'other' }), status: 401, message: 'Invalid token' },
  { name: 'garbage', token: async () => 'not-a-jwt', status: 401, message: 'Invalid token' },
  {
    name: 'HS256 signed with the public key as secret',
    token: async () => {
      const { SignJWT } = await import('jose');
      const jwk = (await testJwks()).keys[0]!;
      const secret = new TextEncoder().encode(JSON.stringify(jwk));
      return new SignJWT({ email: 'mia@example.org', email_verified: true })
        .setProtectedHeader({ alg: 'HS256', kid: jwk.kid! })
        .setIssuer(testIssuer)
        .setAudience(testAudience)
        .setExpirationTime('10m')
        .sign(secret);
    },
    status: 401,
    message: 'Invalid token',
  },
  {
    name: 'email_verified false',
    token: mint({ emailVerified: false }),
    status: 403,
    message: 'Your e-mail address is not verified',
  },
  {
    name: 'email_verified as the string "true"',
    token: mint({ claims: { email_verified: 'true' } }),
    status: 403,
    message: 'Your e-mail address is not verified',
  },
  { name: 'a@evil-example.org', token: mint({ email: 'a@evil-example.org' }), status: 403, message: NOT_MEMBER },
  { name: 'a@example.org.evil.test', token: mint({ email: 'a@example.org.evil.test' }), status: 403, message: NOT_MEMBER },
  { name: 'a@sub.example.org', token: mint({ email: 'a@sub.example.org' }), status: 403, message: NOT_MEMBER },
  { name: 'example.org@outsider.test', token: mint({ email: 'example.org@outsider.test' }), status: 403, message: NOT_MEMBER },
  { name: 'no email claim', token: mint({ claims: { email: undefined } }), status: 403, message: NOT_MEMBER },
];

describe('emailDomain', () => {
  it('takes the part after the LAST @, lower-cased', () => {
    expect(emailDomain('A@EXAMPLE.ORG')).toBe('example.org');
    expect(emailDomain('a@b@Example.Org')).toBe('example.org');
    expect(emailDomain('no-at-sign')).toBe('');
  });
});

describe('createTokenVerifier (local JWKS)', () => {
  const verifier = testVerifier();

  it('accepts a member token and returns the member', async () => {
    await expect(verifier.verify(await mintToken())).resolves.toEqual({
      email: 'mia@example.org',
      firstName: 'Mia',
      lastName: 'Member',
      role: 'admin',
    });
  });

  it('accepts A@EXAMPLE.ORG for domain example.org (case-insensitive domain)', async () => {
    const member = await verifier.verify(await mintToken({ email: 'A@EXAMPLE.ORG' }));
    expect(member.email).toBe('a@example.org');
  });

  it('accepts a configured domain given in upper case', async () => {
    const upper = testVerifier({ orgEmailDomain: 'EXAMPLE.ORG' });
    await expect(upper.verify(await mintToken())).resolves.toMatchObject({ email: 'mia@example.org' });
  });

  it('takes the names from `name` when given_name/family_name are absent', async () => {
    const token = await mintToken({ claims: { given_name: undefined, family_name: undefined, name: 'Mia Q. Member' } });
    await expect(verifier.verify(token)).resolves.toEqual({
      email: 'mia@example.org',
      firstName: 'Mia',
      lastName: 'Q. Member',
      role: 'admin',
    });
  });

  it('accepts a token within the 5 s clock tolerance', async () => {
    await expect(verifier.verify(await mintToken({ expiresIn: -2 }))).resolves.toBeTruthy();
  });

  it('accepts an iat within the clock tolerance ahead, and a token issued 23 hours ago', async () => {
    await expect(verifier.verify(await mintToken({ claims: { iat: nowSeconds() + 3 } }))).resolves.toBeTruthy();
    await expect(verifier.verify(await mintToken({ claims: { iat: nowSeconds() - 23 * HOUR } }))).resolves.toBeTruthy();
  });

  it('takes the maximum token age from its options', async () => {
    const strict = createTokenVerifier({
      issuer: testIssuer,
      audience: testAudience,
      orgEmailDomain: 'example.org',
      jwks: testKeyResolver,
      maxTokenAgeSeconds: 60,
    });
    await expect(strict.verify(await mintToken({ claims: { iat: nowSeconds() - 30 } }))).resolves.toBeTruthy();
    await expect(strict.verify(await mintToken({ claims: { iat: nowSeconds() - 120 } }))).rejects.toMatchObject({
      status: 401,
      message: 'Token expired',
    });
  });

  it('rejects a missing token with 401', async () => {
    await expect(verifier.verify('')).rejects.toMatchObject({ status: 401, message: 'Missing bearer token' });
  });

  for (const c of rejections) {
    it(`rejects ${c.name} with ${c.status}`, async () => {
      const error = await verifier.verify(await c.token()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AuthError);
      expect(error).toMatchObject({ status: c.status, message: c.message });
    });
  }
});

describe('bearer middleware over HTTP (express-openapi-validator bearerAuth handler)', () => {
  const app = tinyApp(testVerifier());

  it('answers the member for a member token', async () => {
    const response = await request(app)
      .get('/api/me')
      .set('Authorization', `Bearer ${await mintToken()}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ email: 'mia@example.org', firstName: 'Mia', lastName: 'Member', role: 'admin' });
  });

  it('accepts A@EXAMPLE.ORG', async () => {
    const response = await request(app)
      .get('/api/me')
      .set('Authorization', `bearer ${await mintToken({ email: 'A@EXAMPLE.ORG' })}`);
    expect(response.status).toBe(200);
    expect(response.body.email).toBe('a@example.org');
  });

  it('rejects no token with 401 { message }', async () => {
    const response = await request(app).get('/api/me');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: expect.any(String) });
    expect(response.body.message).toMatch(/authorization header required/i);
  });

  it('rejects a non-bearer Authorization header with 401 { message }', async () => {
    const response = await request(app).get('/api/me').set('Authorization', 'Basic bWlhOm1haWxyb29t');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: expect.any(String) });
  });

  it('rejects "Bearer" with no token with 401 { message }', async () => {
    const response = await request(app).get('/api/me').set('Authorization', 'Bearer ');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: 'Missing bearer token' });
  });

  for (const c of rejections) {
    it(`rejects ${c.name} with ${c.status} { message }`, async () => {
      const response = await request(app)
        .get('/api/me')
        .set('Authorization', `Bearer ${await c.token()}`);
      expect(response.status).toBe(c.status);
      expect(response.body).toEqual({ message: c.message });
    });
  }

  it('the plain requireMember middleware behaves the same', async () => {
    const plain = plainApp(testVerifier());
    const ok = await request(plain)
      .get('/plain/me')
      .set('Authorization', `Bearer ${await mintToken()}`);
    expect(ok.status).toBe(200);
    expect(ok.body.email).toBe('mia@example.org');

    const none = await request(plain).get('/plain/me');
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ message: 'Missing bearer token' });

    const outsider = await request(plain)
      .get('/plain/me')
      .set('Authorization', `Bearer ${await mintToken({ email: 'a@evil-example.org' })}`);
    expect(outsider.status).toBe(403);
    expect(outsider.body).toEqual({ message: NOT_MEMBER });
  });
});

describe('remote JWKS through OpenID discovery over HTTP', () => {
  let server: Server;
  let issuer: string;
  let discoveryHits = 0;
  let jwksHits = 0;
  let failDiscovery = false;

  beforeAll(async () => {
    const jwks = await testJwks();
    server = createServer((req, res) => {
      if (req.url === '/.well-known/openid-configuration') {
        discoveryHits += 1;
        if (failDiscovery) {
          res.writeHead(500).end();
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks` }));
      } else if (req.url === '/jwks') {
        jwksHits += 1;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(jwks));
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('discovers the JWKS once and verifies tokens with it; bad tokens are still rejected', async () => {
    discoveryHits = 0;
    jwksHits = 0;
    const verifier = createTokenVerifier({ issuer, audience: testAudience, orgEmailDomain: 'example.org' });

    await expect(verifier.verify(await mintToken({ issuer }))).resolves.toEqual({
      email: 'mia@example.org',
      firstName: 'Mia',
      lastName: 'Member',
      role: 'admin',
    });
    await expect(verifier.verify(await mintToken({ issuer, email: 'A@EXAMPLE.ORG' }))).resolves.toMatchObject({
      email: 'a@example.org',
    });
    expect(discoveryHits).toBe(1);
    expect(jwksHits).toBe(1);

    await expect(verifier.verify(await mintToken({ issuer, key: 'other' }))).rejects.toMatchObject({
      status: 401,
      message: 'Invalid token',
    });
    await expect(verifier.verify(await mintToken({ issuer, email: 'otto@outsider.test' }))).rejects.toMatchObject({
      status: 403,
      message: NOT_MEMBER,
    });
    // the test issuer is not this issuer
    await expect(verifier.verify(await mintToken())).rejects.toMatchObject({ status: 401 });
    expect(discoveryHits).toBe(1);
  });

  it('retries discovery after a failure', async () => {
    discoveryHits = 0;
    failDiscovery = true;
    const verifier = createTokenVerifier({ issuer, audience: testAudience, orgEmailDomain: 'example.org' });
    const token = await mintToken({ issuer });

    const error = await verifier.verify(token).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthUnavailableError);
    expect(error).toMatchObject({ message: 'Sign-in service unavailable' });
    // garbage is still a 401 without asking the provider
    await expect(verifier.verify('garbage')).rejects.toMatchObject({ status: 401 });

    failDiscovery = false;
    await expect(verifier.verify(token)).resolves.toMatchObject({ email: 'mia@example.org' });
    expect(discoveryHits).toBe(2);
  });

  it('uses an explicit jwksUri without discovery', async () => {
    discoveryHits = 0;
    const verifier = createTokenVerifier({
      issuer,
      audience: testAudience,
      orgEmailDomain: 'example.org',
      jwksUri: `${issuer}/jwks`,
    });
    await expect(verifier.verify(await mintToken({ issuer }))).resolves.toMatchObject({ email: 'mia@example.org' });
    expect(discoveryHits).toBe(0);
  });

  it('a provider that is down is not a 401 for the caller', async () => {
    const verifier = createTokenVerifier({
      issuer: 'http://127.0.0.1:9',
      audience: testAudience,
      orgEmailDomain: 'example.org',
    });
    const error = await verifier.verify(await mintToken({ issuer: 'http://127.0.0.1:9' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthUnavailableError);
  });
});
