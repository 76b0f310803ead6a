import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import { bearer } from '../../test/support/tokens.js';
import { DATABASE_UNAVAILABLE, DomainError, type DomainErrorKind } from '../errors.js';
import { errorResponse } from './errors.js';
import { Database } from '../db/database.js';
import { defineModels } from '../db/models/index.js';
import { createSequelize } from '../db/sequelize.js';

describe('the app: errors, security, health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('healthz answers ok', async () => {
    const res = await request(t.app).get('/healthz').expect(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('readyz answers ok when the database and the queue answer', async () => {
    const res = await request(t.app).get('/readyz').expect(200);
    expect(res.body).toEqual({ status: 'ok', checks: { database: 'up', broker: 'up' } });
  });

  it('answers 404 { message } for an unknown route', async () => {
    const res = await request(t.app).get('/no/such/route').expect(404);
    expect(res.body).toEqual({ message: 'Not found' });
    const api = await request(t.app)
      .get('/api/no-such-thing')
      .set('Authorization', await bearer())
      .expect(404);
    expect(api.body).toEqual({ message: 'Not found' });
  });

  it('answers 400 { message, errors } when the request breaks the contract', async () => {
    const res = await request(t.app)
      .get('/api/ses-quota?unexpected=1')
      .set('Authorization', await bearer())
      .expect(400);
    expect(res.body.message).toMatch(/unexpected/);
    expect(res.body.errors).toEqual([expect.objectContaining({ message: expect.any(String) })]);
  });

  it('answers 400 { message } for a body that is not JSON', async () => {
    const res = await request(t.app)
      .post('/api/audiences')
      .set('Authorization', await bearer())
      .set('Content-Type', 'application/json')
      .send('{"name":')
      .expect(400);
    expect(res.body).toEqual({ message: "The request's body is not valid JSON." });
  });

  it('answers 401 without a token and 403 for someone outside the organisation', async () => {
    const none = await request(t.app).get('/api/ses-quota').expect(401);
    expect(none.body).toEqual({ message: expect.any(String) });
    const bad = await request(t.app).get('/api/ses-quota').set('Authorization', 'Bearer not-a-jwt').expect(401);
    expect(bad.body).toEqual({ message: 'Invalid token' });
    const outsider = await request(t.app)
      .get('/api/ses-quota')
      .set('Authorization', await bearer({ email: 'otto@outsider.test' }))
      .expect(403);
    expect(outsider.body.message).toMatch(/example\.org/);
  });
});

describe('the app: a failure inside a route', () => {
  let t: TestApp;
  beforeAll(async () => {
    // An SES client that fails with internals in its message: they must not reach the caller.
    const ses = { send: async () => Promise.reject(new Error('connect ECONNREFUSED 10.1.2.3:443 secret-key=abc')), destroy() {} };
    t = await createTestApp({ ses: ses as never });
  });
  afterAll(() => t?.close());

  it('answers 500 { message: "Internal server error" } and nothing else', async () => {
    const res = await request(t.app)
      .get('/api/ses-quota')
      .set('Authorization', await bearer())
      .expect(500);
    expect(res.body).toEqual({ message: 'Internal server error' });
    expect(JSON.stringify(res.body)).not.toMatch(/ECONNREFUSED|secret|stack/);
  });
});

describe('the app: readiness when the database is gone', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('readyz answers 503 with the failing dependency', async () => {
    // Nothing listens on port 9 (discard): the database is unreachable.
    const sequelize = createSequelize({ databaseUrl: 'postgres://postgres@127.0.0.1:9/none', databasePoolMax: 1 });
    const unreachable = new Database(sequelize, defineModels(sequelize));
    const { createApp } = await import('./app.js');
    const app = createApp({ ...t.deps, db: unreachable });
    try {
      const res = await request(app).get('/readyz').expect(503);
      expect(res.body).toEqual({
        status: 'unavailable',
        checks: { database: 'down', broker: 'up' },
        message: 'Not ready: database unavailable',
      });
    } finally {
      await unreachable.close();
    }
  });

  it('readyz stays 200 with the queue closed: the API needs the database only, and reports the broker', async () => {
    await t.deps.messageQueue.close();
    const res = await request(t.app).get('/readyz').expect(200);
    expect(res.body).toEqual({ status: 'ok', checks: { database: 'up', broker: 'down' } });
  });
});

describe('errorResponse', () => {
  it('maps each kind of DomainError to its status, with its message', () => {
    const cases: [DomainErrorKind, number][] = [
      ['invalid', 400],
      ['forbidden', 403],
      ['not-found', 404],
      ['conflict', 409],
      ['too-large', 413],
      ['unavailable', 503],
    ];
    for (const [kind, status] of cases) {
      expect(errorResponse(new DomainError(kind, `a ${kind} case`))).toEqual({ status, body: { message: `a ${kind} case` } });
    }
  });

  it('answers a lost database with 503 and a value PostgreSQL refuses with 400, without internals', () => {
    const terminated = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    expect(errorResponse(terminated)).toEqual({ status: 503, body: { message: DATABASE_UNAVAILABLE } });
    const lost = new Error('Connection terminated unexpectedly');
    expect(errorResponse(new DomainError('unavailable', DATABASE_UNAVAILABLE, { cause: lost }))).toEqual({
      status: 503,
      body: { message: DATABASE_UNAVAILABLE },
    });
    const nul = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' });
    expect(errorResponse({ name: 'SequelizeDatabaseError', parent: nul })).toEqual({
      status: 400,
      body: { message: 'A value in the request is not valid' },
    });
    const syntax = Object.assign(new Error('syntax error at or near "x"'), { code: '42601' });
    expect(errorResponse(syntax)).toEqual({ status: 500, body: { message: 'Internal server error' } });
  });

  it('hides anything else behind a 500', () => {
    expect(errorResponse(new TypeError("Cannot read properties of undefined (reading 'id')"))).toEqual({
      status: 500,
      body: { message: 'Internal server error' },
    });
    expect(errorResponse('a string')).toEqual({ status: 500, body: { message: 'Internal server error' } });
  });
});

describe('the app: operation log for the contract check', () => {
  let t: TestApp;
  let log: string;
  beforeAll(async () => {
    // A log of its own: the shared one is truncated whenever another test run starts.
    log = join(await mkdtemp(join(tmpdir(), 'mailroom-oplog-')), 'operations.jsonl');
    t = await createTestApp({ env: { MAILROOM_OPERATION_LOG: log } });
  });
  afterAll(() => t?.close());

  it('appends one line per handled operation with its status, and none for unknown routes', async () => {
    await request(t.app).get('/healthz').expect(200);
    await request(t.app).get('/readyz').expect(200);
    // Refused by the contract: still its operation's line. (A request without a token is refused before the contract.)
    await request(t.app)
      .get('/api/ses-quota?unexpected=1')
      .set('Authorization', await bearer())
      .expect(400);
    await request(t.app).get('/no/such/route').expect(404);
    const lines = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toEqual([
      { operationId: 'healthz', status: 200 },
      { operationId: 'readyz', status: 200 },
      { operationId: 'getSesQuota', status: 400 },
    ]);
  });

  it('writes nothing when responses are not validated', async () => {
    const other = await createTestApp({ env: { MAILROOM_OPERATION_LOG: `${log}.off`, VALIDATE_RESPONSES: 'false' } });
    try {
      await request(other.app).get('/healthz').expect(200);
      expect(existsSync(`${log}.off`)).toBe(false);
    } finally {
      await other.close();
    }
  });
});
