import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import { bearer } from '../../test/support/tokens.js';

describe("the API's security headers", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  const expectHeaders = (response: request.Response, what: string) => {
    expect(response.headers['x-content-type-options'], what).toBe('nosniff');
    expect(response.headers['referrer-policy'], what).toBe('no-referrer');
    const csp = response.headers['content-security-policy'] as string | undefined;
    expect(csp, what).toContain("default-src 'none'");
    expect(csp, what).toContain("frame-ancestors 'none'");
    expect(csp, what).not.toMatch(/script-src/);
  };

  it('are on answers that succeed and on every kind of error', async () => {
    const token = await bearer();
    expectHeaders(await request(t.app).get('/api/audiences').set('Authorization', token).expect(200), 'list');
    expectHeaders(await request(t.app).get('/healthz').expect(200), 'health');
    expectHeaders(await request(t.app).get('/api/audiences').expect(401), 'no token');
    expectHeaders(await request(t.app).get('/api/audiences?limit=nope').set('Authorization', token).expect(400), 'bad input');
    expectHeaders(await request(t.app).get('/api/audiences/999999').set('Authorization', token).expect(404), 'not found');
    expectHeaders(await request(t.app).get('/no/such/route').expect(404), 'unknown route');
  });
});
