/**
 * What the app does before any route runs: /api requests are authenticated before their bodies are
 * read, JSON bodies are small unless their route raises the limit, and failed sign-ins and the public
 * routes are rate limited (429 with Retry-After).
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import { bearer } from '../../test/support/tokens.js';

const MB = 1024 * 1024;

/** A JSON document of about `bytes` made of many small objects: costly to parse. */
function bigJson(bytes: number): Buffer {
  const item = '{"email":"someone@example.org","name":"Some One"},';
  return Buffer.from(`{"name":"x","rows":[${item.repeat(Math.ceil(bytes / item.length))}{}]}`);
}

/** Sends a JSON `body` and resolves with the status as soon as the answer comes, however much of the body was taken. */
function send(method: string, url: string, body: Buffer, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method, agent: false, headers: { 'content-type': 'application/json', 'content-length': body.length, ...headers } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    // The server may answer and close before the whole body is sent.
    req.on('error', (error) => (req.writableFinished ? reject(error) : undefined));
    req.end(body);
  });
}

describe('authentication before bodies', () => {
  let t: TestApp;
  let server: Server;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp();
    server = createServer(t.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // The contract validator compiles openapi.yaml in the background after start: let it finish, so
    // that the event-loop delay measured below is the requests' own.
    expect(
      (
        await request(t.app)
          .get('/api/audiences')
          .set('Authorization', await bearer())
      ).status,
    ).toBe(200);
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await t?.close();
  });

  it('refuses six 5 MB bodies without a token with 401, quickly and without parsing them', async () => {
    const body = bigJson(5 * MB);
    const parse = vi.spyOn(JSON, 'parse');
    const delay = monitorEventLoopDelay({ resolution: 10 });
    const cpu = process.cpuUsage();
    delay.enable();
    const started = performance.now();
    const statuses = await Promise.all(Array.from({ length: 6 }, () => send('POST', `${base}/api/audiences`, body)));
    const elapsed = performance.now() - started;
    delay.disable();
    const { user, system } = process.cpuUsage(cpu);
    const parsedBodies = parse.mock.calls.filter(([text]) => typeof text === 'string' && text.length > MB).length;
    parse.mockRestore();
    console.info(
      `six 5 MB bodies without a token: ${Math.round(elapsed)} ms, CPU ${Math.round((user + system) / 1000)} ms, ` +
        `event loop delay max ${Math.round(delay.max / 1e6)} ms, mean ${Math.round(delay.mean / 1e6)} ms, bodies parsed ${parsedBodies}`,
    );
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401]);
    expect(parsedBodies).toBe(0);
    // Parsing them cost 560-680 ms of CPU and blocked the event loop up to 1.2 s at a time (0.8-3.5 s in all);
    // refusing them costs this process (the client sending 30 MB included) about 40 ms. CPU time is asserted
    // rather than delays: other work on a shared machine stretches the clock, not the count.
    expect((user + system) / 1000).toBeLessThan(250);
    expect(elapsed).toBeLessThan(2_000);
  });

  it('takes JSON bodies up to 100 kB by default and answers 413 above', async () => {
    const auth = await bearer();
    const small = await request(t.app)
      .post('/api/audiences')
      .set('Authorization', auth)
      .send({ name: 'x'.repeat(150) });
    expect(small.status).toBe(201);
    const large = await send('POST', `${base}/api/audiences`, Buffer.from(JSON.stringify({ name: 'x', padding: 'x'.repeat(150_000) })), {
      authorization: auth,
    });
    expect(large).toBe(413);
  });

  it('lets a route listed with a larger limit take a larger body (a template of a few MB)', async () => {
    const auth = await bearer();
    const template = Buffer.from(JSON.stringify({ name: 'T', html: `<p>${'x'.repeat(1_500_000)}</p>`, plainText: 'x' }));
    // Past the body parser and the contract: the template route answers (404 while templates are not built).
    expect([200, 404]).toContain(await send('PUT', `${base}/api/templates/1`, template, { authorization: auth }));
    // The same body on a route without a raised limit is too large.
    expect(await send('PUT', `${base}/api/audiences/1`, template, { authorization: auth })).toBe(413);
  });
});

describe('rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_SIGN_IN_FAILURES: '5', RATE_LIMIT_PUBLIC: '5' } });
  });
  afterAll(() => t?.close());

  // The app trusts X-Forwarded-For from loopback (its own proxy), so each test speaks for its own address.
  const from = (address: string) => ({ 'X-Forwarded-For': address });

  it('answers 429 with Retry-After once an address has failed to sign in too often, and only that address', async () => {
    const member = await bearer();
    const outsider = await bearer({ email: 'otto@outsider.test' });
    // Successful calls do not count.
    for (let i = 0; i < 10; i += 1) {
      expect((await request(t.app).get('/api/audiences').set(from('192.0.2.1')).set('Authorization', member)).status).toBe(200);
    }
    const failures = [
      await request(t.app).get('/api/audiences').set(from('192.0.2.1')),
      await request(t.app).get('/api/audiences').set(from('192.0.2.1')).set('Authorization', 'Bearer not-a-jwt'),
      await request(t.app).get('/api/audiences').set(from('192.0.2.1')).set('Authorization', outsider),
      await request(t.app).post('/api/audiences').set(from('192.0.2.1')).send({ name: 'x' }),
      await request(t.app).get('/api/no-such-route').set(from('192.0.2.1')),
    ];
    expect(failures.map((res) => res.status)).toEqual([401, 401, 403, 401, 401]);

    const refused = await request(t.app).get('/api/audiences').set(from('192.0.2.1')).set('Authorization', member);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ message: 'Too many requests; try again later' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);

    // Another address is not affected.
    expect((await request(t.app).get('/api/audiences').set(from('192.0.2.2')).set('Authorization', member)).status).toBe(200);
  });

  it('answers 429 with Retry-After past the public routes limit, per address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await request(t.app).get('/t/o/some-token').set(from('198.51.100.1'))).status);
    expect(statuses.slice(0, 5)).not.toContain(429);
    expect(statuses[5]).toBe(429);
    const refused = await request(t.app).post('/webhooks/ses').set(from('198.51.100.1')).send({});
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await request(t.app).get('/unsubscribe/some-token').set(from('198.51.100.2'))).status).not.toBe(429);
    // /api and the probes are not public routes.
    expect((await request(t.app).get('/healthz').set(from('198.51.100.1'))).status).toBe(200);
  });
});

describe('client addresses behind proxies (TRUST_PROXY)', () => {
  const hit = (app: TestApp['app'], forwardedFor: string) => request(app).get('/t/o/some-token').set('X-Forwarded-For', forwardedFor);

  it('counts by the address a trusted proxy gives, and by the proxy itself when it is not trusted', async () => {
    // supertest speaks from 127.0.0.1: trusted by the default (loopback), not by TRUST_PROXY=192.0.2.250.
    const trusted = await createTestApp({ env: { RATE_LIMIT_PUBLIC: '1' } });
    const untrusted = await createTestApp({ env: { RATE_LIMIT_PUBLIC: '1', TRUST_PROXY: '192.0.2.250' } });
    try {
      expect((await hit(trusted.app, '203.0.113.1')).status).not.toBe(429);
      expect((await hit(trusted.app, '203.0.113.2')).status).not.toBe(429);
      expect((await hit(untrusted.app, '203.0.113.1')).status).not.toBe(429);
      // Another forwarded address changes nothing: the one client is the untrusted hop.
      expect((await hit(untrusted.app, '203.0.113.2')).status).toBe(429);
    } finally {
      await Promise.all([trusted.close(), untrusted.close()]);
    }
  });
});
