/**
 * The hostile sweep: every `/api` operation of openapi.yaml, read from the file itself, so that an
 * operation added later is swept without touching this test. Each path and query parameter, and each
 * field of a JSON body, is set in turn to hostile values (out-of-range and malformed numbers, NUL
 * bytes, huge strings, wrong types), and whole bodies are replaced by hostile ones (none, not JSON,
 * the wrong media type, too large, a cut multipart form). With a member's token no answer may be a
 * 5xx; without one every answer is a 401. An operation not implemented yet answers 404 once its
 * request passed the contract, which is fine.
 *
 * The public sign-up routes (`/subscribe/...`, issue 25) are swept apart, with a real form: a refused
 * submission or confirmation must be a 4xx that says why, and must store nothing.
 */
import type { AddressInfo } from 'node:net';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Challenge } from 'altcha-lib';
import { solvedPayload } from '../../test/support/altcha.js';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import { seedAudience } from '../../test/support/seed.js';
import { startTestSes, type TestSes } from '../../test/support/ses.js';
import { bearer } from '../../test/support/tokens.js';
import {
  buildUrl,
  doc,
  flatten,
  operations,
  paramSample,
  sample,
  type Json,
  type Operation,
  type Schema,
} from '../../test/support/contract-operations.js';
import { confirmTokens } from '../services/subscriptions/confirm-token.js';

// ---------------------------------------------------------------- hostile values

/** For path and query parameters, as they are written in the URL. */
const HOSTILE_PARAMS = [
  '1e300',
  '99999999999999999999999',
  '-1',
  '0',
  '9223372036854775808',
  '-9223372036854775809',
  '1e20',
  '1.5',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e999',
  '0x10',
  '１',
  'abc',
  '',
  '   ',
  '\u0000',
  'a\u0000b',
  "1' OR '1'='1",
  '..',
  'x'.repeat(8_000),
  // Beyond Node's 16 KB header limit: Node answers 431 before the app sees it.
  'x'.repeat(100_000),
]
  .map(encodeURIComponent)
  // Percent-encodings that do not decode: a lone surrogate, a bare '%', a non-hex escape.
  .concat(['%ED%A0%80', '%', '%zz']);

/** For JSON body fields: raw JSON literals, so that big numbers reach the parser as written. */
const HOSTILE_JSON = [
  '1e300',
  '99999999999999999999999',
  '-1',
  '0',
  '9223372036854775808',
  '-9223372036854775809',
  '1e20',
  '1.5',
  '"abc"',
  '"1"',
  '""',
  '"   "',
  '"\\u0000"',
  '"a\\u0000b"',
  '"\\ud800"',
  '"a\\r\\nBcc: x@example.com"',
  `"${'x'.repeat(50_000)}"`,
  // Above the default JSON limit.
  `"${'x'.repeat(100_000)}"`,
  '[]',
  '{}',
  'null',
  'true',
  '[1e300]',
  '["\\u0000"]',
  '{"$ne":1}',
  `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`,
];

// ---------------------------------------------------------------- requests

interface Case {
  op: Operation;
  what: string;
  url: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

const JSON_TYPE = { 'content-type': 'application/json' };

function multipartBody(parts: { name: string; filename?: string; content: string | Buffer }[], boundary = 'hostile-boundary'): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n`));
    if (part.filename !== undefined) chunks.push(Buffer.from('Content-Type: text/csv\r\n'));
    chunks.push(Buffer.from('\r\n'), Buffer.from(part.content), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

const MULTIPART_TYPE = { 'content-type': 'multipart/form-data; boundary=hostile-boundary' };
const CSV = 'email,name\nann@example.org,Ann\n';

function casesOf(op: Operation): Case[] {
  const pathParams = op.params.filter((p) => p.in === 'path');
  const queryParams = op.params.filter((p) => p.in === 'query');
  const basePath = Object.fromEntries(pathParams.map((p) => [p.name, paramSample(p)]));
  const baseQuery: [string, string][] = queryParams.filter((p) => p.required).map((p) => [p.name, paramSample(p)]);
  const baseBody = op.jsonBody ? JSON.stringify(sample(op.jsonBody)) : undefined;
  const base = { op, headers: op.jsonBody ? JSON_TYPE : undefined, body: baseBody };
  const cases: Case[] = [];

  for (const p of pathParams) {
    for (const value of HOSTILE_PARAMS) {
      cases.push({ ...base, what: `path ${p.name}=${label(value)}`, url: buildUrl(op, { ...basePath, [p.name]: value }, baseQuery) });
    }
  }
  for (const p of queryParams) {
    const others = baseQuery.filter(([name]) => name !== p.name);
    for (const value of HOSTILE_PARAMS) {
      cases.push({ ...base, what: `query ${p.name}=${label(value)}`, url: buildUrl(op, basePath, [...others, [p.name, value]]) });
    }
    cases.push({
      ...base,
      what: `query ${p.name} twice`,
      url: buildUrl(op, basePath, [...others, [p.name, paramSample(p)], [p.name, paramSample(p)]]),
    });
    cases.push({ ...base, what: `query ${p.name}[]`, url: buildUrl(op, basePath, [...others, [`${p.name}%5B%5D`, paramSample(p)]]) });
  }
  const url = buildUrl(op, basePath, baseQuery);

  if (op.jsonBody) {
    const valid = sample(op.jsonBody) as Json;
    const properties = (op.jsonBody.properties ?? {}) as Record<string, Schema>;
    for (const [name, schema] of Object.entries(properties)) {
      const isArray = flatten(schema).type === 'array';
      for (const literal of HOSTILE_JSON) {
        cases.push({ ...base, what: `body ${name}=${label(literal)}`, url, body: withRaw(valid, name, literal) });
        if (isArray) cases.push({ ...base, what: `body ${name}=[${label(literal)}]`, url, body: withRaw(valid, name, `[${literal}]`) });
      }
    }
    const wholeBodies: [string, Record<string, string> | undefined, string | undefined][] = [
      ['no body', undefined, undefined],
      ['empty JSON body', JSON_TYPE, ''],
      ['body null', JSON_TYPE, 'null'],
      ['body []', JSON_TYPE, '[]'],
      ['body "x"', JSON_TYPE, '"x"'],
      ['body {}', JSON_TYPE, '{}'],
      ['body not JSON', JSON_TYPE, '{"name":'],
      ['body with an unknown field', JSON_TYPE, JSON.stringify({ ...valid, unexpected: 1 })],
      ['body with a __proto__ field', JSON_TYPE, `{"__proto__":{"admin":true},${(baseBody ?? '{}').slice(1)}`],
      ['body of 200 kB', JSON_TYPE, JSON.stringify({ ...valid, padding: 'x'.repeat(200_000) })],
      ['body nested 5000 deep', JSON_TYPE, `${'['.repeat(5_000)}${']'.repeat(5_000)}`],
      ['body as text/plain', { 'content-type': 'text/plain' }, baseBody],
      ['body as a form', { 'content-type': 'application/x-www-form-urlencoded' }, 'name=x'],
      ['body as multipart', MULTIPART_TYPE, multipartBody([{ name: 'name', content: 'x' }]).toString()],
      ['body with a bad charset', { 'content-type': 'application/json; charset=klingon' }, baseBody],
      ['body gzip-encoded but not gzip', { ...JSON_TYPE, 'content-encoding': 'gzip' }, baseBody],
    ];
    for (const [what, headers, body] of wholeBodies) cases.push({ op, what, url, headers, body });
  } else if (op.multipart) {
    const file = (content: string | Buffer, filename = 'contacts.csv') => multipartBody([{ name: 'file', filename, content }]);
    const multipartCases: [string, Record<string, string> | undefined, Buffer | string | undefined][] = [
      ['no body', undefined, undefined],
      ['a file with NUL bytes', MULTIPART_TYPE, file(`email,name\nann\u0000@example.org,A\u0000nn\n`)],
      ['a binary file', MULTIPART_TYPE, file(Buffer.from(Array.from({ length: 4096 }, (_, i) => i % 256)))],
      ['an empty file', MULTIPART_TYPE, file('')],
      ['a file name with NUL', MULTIPART_TYPE, file(CSV, 'a\u0000b.csv')],
      ['a file name of 10 kB', MULTIPART_TYPE, file(CSV, `${'x'.repeat(10_000)}.csv`)],
      ['a file name with a path', MULTIPART_TYPE, file(CSV, '../../../etc/passwd.csv')],
      ['a text field with NUL', MULTIPART_TYPE, multipartBody([{ name: 'file', content: 'email\nann\u0000@example.org\n' }])],
      ['a text field of 2 MB', MULTIPART_TYPE, multipartBody([{ name: 'file', content: `email\n${'x'.repeat(2_000_000)}\n` }])],
      ['an unknown field', MULTIPART_TYPE, multipartBody([{ name: 'other', content: 'x' }])],
      ['two files', MULTIPART_TYPE, multipartBody([0, 1].map(() => ({ name: 'file', filename: 'contacts.csv', content: CSV })))],
      ['no parts', MULTIPART_TYPE, '--hostile-boundary--\r\n'],
      ['a form cut short', MULTIPART_TYPE, file(CSV.repeat(100)).subarray(0, 1_000)],
      ['a malformed part header', MULTIPART_TYPE, '--hostile-boundary\r\nContent-Disposition\r\n\r\nx\r\n--hostile-boundary--\r\n'],
      ['multipart without a boundary', { 'content-type': 'multipart/form-data' }, file(CSV)],
      ['a boundary not in the body', { 'content-type': 'multipart/form-data; boundary=elsewhere' }, file(CSV)],
      ['JSON instead of a form', JSON_TYPE, '{"file":"email\\nann@example.org"}'],
      ['text/plain instead of a form', { 'content-type': 'text/plain' }, CSV],
    ];
    for (const [what, headers, body] of multipartCases) cases.push({ op, what, url, headers, body });
  } else {
    cases.push({ op, what: 'an unexpected JSON body', url, headers: JSON_TYPE, body: '{"unexpected":1}' });
    cases.push({ op, what: 'an unexpected body that is not JSON', url, headers: JSON_TYPE, body: '{"' });
  }
  return cases;
}

/** The valid body with one field replaced by a raw JSON literal. */
function withRaw(valid: Json, name: string, literal: string): string {
  const marker = '"__hostile_value__"';
  return JSON.stringify({ ...valid, [name]: '__hostile_value__' }).replace(marker, () => literal);
}

function label(value: string): string {
  const shown = value.length > 24 ? `${value.slice(0, 12)}…(${value.length} chars)` : value;
  return JSON.stringify(shown);
}

// ---------------------------------------------------------------- the sweep

/** One request as given (node:http rather than fetch: it sends a body on a GET, '..' segments, bad escapes). */
function rawRequest(
  base: string,
  method: string,
  url: string,
  givenHeaders: Record<string, string> | undefined,
  content: string | Buffer | undefined,
  bodyChars = 300,
): Promise<{ status: number; body: string; type: string }> {
  const headers: Record<string, string | number> = { ...givenHeaders };
  const body = content === undefined ? undefined : Buffer.from(content);
  if (body) headers['content-length'] = body.length;
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${url}`, { method: method.toUpperCase(), headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString('utf8').slice(0, bodyChars),
          type: res.headers['content-type'] ?? '',
        }),
      );
      res.on('error', reject);
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      // Node 24 refuses an oversized request line by answering 431 and closing at once, often before
      // the client has written it all, so the client sees the reset rather than the answer. Either way
      // Node refused it before any app code ran; anything else is a real failure.
      const refusedByNode = url.length > NODE_HEADER_LIMIT && (error.code === 'ECONNRESET' || error.code === 'EPIPE');
      if (refusedByNode) resolve({ status: 431, body: `connection closed by Node (${error.code})`, type: '' });
      else reject(error);
    });
    req.end(body);
  });
}

/** Node answers a request line or headers above 16 KB itself (431), before any app code runs. */
const NODE_HEADER_LIMIT = 16 * 1024;

describe('hostile sweep of every /api operation', () => {
  let t: TestApp;
  let ses: TestSes;
  let server: Server;
  let base: string;
  let auth: string;
  let viewer: string;

  beforeAll(async () => {
    // Every request without a token is a failed sign-in: the limiter must not answer them 429 here.
    ses = await startTestSes();
    // Roles mapped (issue 27), so that the sweep runs as an admin and again as a viewer.
    t = await createTestApp({
      ses: ses.client,
      env: { RATE_LIMIT_SIGN_IN_FAILURES: '1000000', ROLE_MAP: 'sweep-admins=admin,sweep-viewers=viewer' },
    });
    server = createServer(t.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    auth = await bearer({ claims: { roles: ['sweep-admins'] } });
    viewer = await bearer({ claims: { roles: ['sweep-viewers'] } });
    // One entity of each kind (id 1 in this fresh database), so that ids point at something real.
    for (const op of operations.filter((o) => o.method === 'post' && !o.path.includes('{') && o.jsonBody)) {
      await send({ op, what: 'seed', url: op.path, headers: JSON_TYPE, body: JSON.stringify(sample(op.jsonBody)) }, auth);
    }
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await t?.close();
    await ses?.close();
  });

  const send = (c: Case, authorization: string | undefined) =>
    rawRequest(base, c.op.method, c.url, { ...c.headers, ...(authorization ? { authorization } : {}) }, c.body);

  /** Runs the cases a few at a time; answers the ones whose status the check refuses. */
  async function sweep(cases: Case[], authorization: string | undefined, refused: (c: Case, status: number) => boolean) {
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let next = 0;
    const worker = async () => {
      while (next < cases.length) {
        const c = cases[next++]!;
        const { status, body } = await send(c, authorization);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (refused(c, status))
          failures.push(`${c.op.id} ${c.op.method.toUpperCase()} ${c.url.slice(0, 120)} [${c.what}] -> ${status} ${body}`);
      }
    };
    await Promise.all(Array.from({ length: 4 }, worker));
    return { failures, statuses: Object.fromEntries([...statuses].sort(([a], [b]) => a - b)) };
  }

  const allCases = () => operations.flatMap(casesOf);

  it('reads the /api operations of openapi.yaml', () => {
    expect(operations.length).toBeGreaterThanOrEqual(35);
    expect(operations.every((op) => op.id)).toBe(true);
  });

  it('answers no 5xx (and no 401) to a member, whatever the input', async () => {
    const cases = allCases();
    const { failures, statuses } = await sweep(cases, auth, (_c, status) => status >= 500 || status === 401);
    console.info(
      `hostile sweep with a token: ${operations.length} operations, ${cases.length} requests, statuses ${JSON.stringify(statuses)}`,
    );
    expect(failures).toEqual([]);
    // The app still serves.
    expect((await send({ op: operations[0]!, what: 'after', url: '/api/audiences' }, auth)).status).toBe(200);
  }, 600_000);

  it('answers no 5xx (and no 401) to a viewer, and never lets a viewer through an operation above a viewer', async () => {
    const cases = allCases();
    const roleOf = (c: Case) => (doc.paths as Record<string, Record<string, Json>>)[c.op.path]![c.op.method]!['x-mailroom-role'];
    // Above a viewer: refused. A 403 once the contract knows the operation; before that the body parsers or the
    // router may refuse first (a body that is not JSON, too large, a path that does not decode), also a 4xx.
    const aboveViewer = (c: Case) => roleOf(c) !== 'viewer';
    const { failures, statuses } = await sweep(
      cases,
      viewer,
      (c, status) => status >= 500 || status === 401 || (aboveViewer(c) && status < 400),
    );
    console.info(`hostile sweep as a viewer: ${cases.length} requests, statuses ${JSON.stringify(statuses)}`);
    expect(failures).toEqual([]);
    const above = cases.filter(aboveViewer).length;
    expect((statuses as Record<number, number>)[403]).toBeGreaterThan(above / 2);
  }, 600_000);

  it('answers 401 to the same requests without a token', async () => {
    const cases = allCases();
    const expected = (c: Case) => (c.url.length > NODE_HEADER_LIMIT ? 431 : 401);
    const { failures, statuses } = await sweep(cases, undefined, (c, status) => status !== expected(c));
    console.info(`hostile sweep without a token: ${cases.length} requests, statuses ${JSON.stringify(statuses)}`);
    expect(failures).toEqual([]);
  }, 600_000);
});

// ---------------------------------------------------------------- the public sign-up routes

/** For the values of a submission's fields, as a person or a script could send them. */
const HOSTILE_FIELD_VALUES: [string, string][] = [
  ['a header in the value (CR LF)', 'Eve\r\nBcc: victim@example.org'],
  ['a line feed', 'Eve\nBcc: victim@example.org'],
  ['a carriage return', 'Eve\rX'],
  ['10 KB', 'x'.repeat(10_000)],
  ['a NUL byte', 'a\u0000b'],
  ['a NUL byte alone', '\u0000'],
];

describe('hostile sweep of the public sign-up routes', () => {
  let t: TestApp;
  let ses: TestSes;
  let server: Server;
  let base: string;
  let slug: string;
  let client = 0;
  /** Each request from its own client address, so the per-client limits are not what answers. */
  const nextClient = () => `203.0.${113 + (client >> 8)}.${client++ & 255}`;

  const tables = ['pending_signups', 'signup_mails', 'signup_used_challenges', 'contacts', 'consent_ledger', 'suppressions'];
  const stored = async () =>
    Object.fromEntries(
      await Promise.all(
        tables.map(async (table) => [table, Number((await t.db.pool.query(`SELECT count(*) AS n FROM ${table}`)).rows[0].n)] as const),
      ),
    );

  const solved = async (formSlug = slug) => {
    const { body } = await rawRequest(base, 'GET', `/subscribe/${formSlug}/challenge`, undefined, undefined, 10_000);
    return solvedPayload(JSON.parse(body) as Challenge);
  };

  beforeAll(async () => {
    ses = await startTestSes();
    t = await createTestApp({ ses: ses.client });
    server = createServer(t.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { id: audienceId } = await seedAudience(t.db.pool, { headers: ['fullName'], contacts: [] });
    await t.db.pool.query(
      `INSERT INTO audience_fields (audience_id, key, label, type, position) VALUES ($1, 'fullName', 'Full name', 'TEXT', 1)`,
      [audienceId],
    );
    const form = await rawRequest(
      base,
      'POST',
      `/api/audiences/${audienceId}/forms`,
      { ...JSON_TYPE, authorization: await bearer() },
      JSON.stringify({ name: 'Hostile', consentWording: 'I agree.', fields: [{ key: 'fullName', required: true }] }),
      10_000,
    );
    expect(form.status).toBe(201);
    slug = (JSON.parse(form.body) as { slug: string }).slug;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await t?.close();
    await ses?.close();
  });

  /** A refusal says why: a page with the reason for a browser, `{ message }` for a JSON caller. */
  const saysWhy = (answer: { status: number; body: string; type: string }) =>
    answer.type.startsWith('application/json')
      ? typeof (JSON.parse(answer.body) as { message?: unknown }).message === 'string'
      : answer.type.startsWith('text/html') && /<p>[^<]+<\/p>/.test(answer.body);

  it('refuses every hostile submission with a 4xx that says why, and stores nothing', async () => {
    const replayed = await solved();
    const valid = { email: 'person@example.org', fullName: 'Person', consent: 'yes' };
    // The replayed solution was taken once, by a valid sign-up; its rows are the baseline.
    const taken = await rawRequest(
      base,
      'POST',
      `/subscribe/${slug}`,
      { ...JSON_TYPE, accept: 'application/json', 'x-forwarded-for': nextClient() },
      JSON.stringify({ ...valid, altcha: replayed }),
    );
    expect(taken.status).toBe(200);
    const before = await stored();

    type Submission = [what: string, headers: Record<string, string>, body: string | Buffer | undefined];
    const asForm = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
    const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
    const JSON_CALL = { ...JSON_TYPE, accept: 'application/json' };
    const cases: Submission[] = [];
    for (const field of ['email', 'fullName', 'consent', 'altcha']) {
      for (const [what, value] of HOSTILE_FIELD_VALUES) {
        const fields = { ...valid, altcha: await solved(), [field]: value };
        cases.push([`form post, ${field}: ${what}`, FORM, asForm(fields)]);
        cases.push([
          `JSON call, ${field}: ${what}`,
          JSON_CALL,
          JSON.stringify({ ...fields, altcha: field === 'altcha' ? value : await solved() }),
        ]);
      }
    }
    const fresh = async () => ({ ...valid, altcha: await solved() });
    cases.push(
      ['form post, an unknown field', FORM, asForm({ ...(await fresh()), isAdmin: 'true' })],
      ['JSON call, an unknown field', JSON_CALL, JSON.stringify({ ...(await fresh()), isAdmin: true })],
      ['JSON call, a __proto__ field', JSON_CALL, `{"__proto__":{"admin":true},${JSON.stringify(await fresh()).slice(1)}`],
      ['form post, a field twice', FORM, `${asForm(await fresh())}&email=other%40example.org`],
      ['form post, a field as a list', FORM, `${asForm(await fresh())}&fullName%5B%5D=x`],
      ['JSON call, a number', JSON_CALL, JSON.stringify({ ...(await fresh()), fullName: 1 })],
      ['JSON call, an object', JSON_CALL, JSON.stringify({ ...(await fresh()), email: { $ne: 1 } })],
      ['JSON call, a list', JSON_CALL, JSON.stringify({ ...(await fresh()), email: ['a@example.org'] })],
      ['JSON call, null', JSON_CALL, JSON.stringify({ ...(await fresh()), consent: null })],
      ['no body', FORM, undefined],
      ['an empty body', JSON_CALL, ''],
      ['JSON that is not JSON', JSON_CALL, '{"email":'],
      ['a JSON list', JSON_CALL, '[]'],
      ['a body over 16 KB', FORM, asForm({ ...(await fresh()), fullName: 'y'.repeat(20_000) })],
      ['text/plain', { 'content-type': 'text/plain' }, asForm(await fresh())],
      ['XML', { 'content-type': 'application/xml' }, '<email>a@example.org</email>'],
      [
        'multipart',
        { 'content-type': 'multipart/form-data; boundary=b' },
        '--b\r\nContent-Disposition: form-data; name="email"\r\n\r\na@example.org\r\n--b--\r\n',
      ],
      ['a bad charset', { 'content-type': 'application/x-www-form-urlencoded; charset=klingon' }, asForm(await fresh())],
      ['gzip that is not gzip', { ...FORM, 'content-encoding': 'gzip' }, asForm(await fresh())],
      ['JSON call, no challenge', JSON_CALL, JSON.stringify(valid)],
      ['JSON call, an empty challenge', JSON_CALL, JSON.stringify({ ...valid, altcha: '' })],
      ['JSON call, a replayed challenge', JSON_CALL, JSON.stringify({ ...valid, email: 'again@example.org', altcha: replayed })],
      ['form post, a replayed challenge', FORM, asForm({ ...valid, email: 'again2@example.org', altcha: replayed })],
      [
        'JSON call, a challenge that is not one',
        JSON_CALL,
        JSON.stringify({ ...valid, altcha: Buffer.from('{"a":1}').toString('base64') }),
      ],
    );

    const failures: string[] = [];
    const statuses = new Map<number, number>();
    for (const [what, headers, body] of cases) {
      const answer = await rawRequest(base, 'POST', `/subscribe/${slug}`, { ...headers, 'x-forwarded-for': nextClient() }, body, 10_000);
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (answer.status < 400 || answer.status >= 500 || !saysWhy(answer))
        failures.push(`${what} -> ${answer.status} ${answer.body.slice(0, 200)}`);
    }
    console.info(`public hostile sweep: ${cases.length} submissions, statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
    expect(failures).toEqual([]);
    expect(await stored()).toEqual(before);
  }, 120_000);

  it('refuses hostile slugs, links, files and confirmations with a 4xx, and confirms nothing', async () => {
    // A real pending sign-up, whose link hostile confirmations then aim at.
    const email = 'pending-person@example.org';
    await rawRequest(
      base,
      'POST',
      `/subscribe/${slug}`,
      { ...JSON_TYPE, accept: 'application/json', 'x-forwarded-for': nextClient() },
      JSON.stringify({ email, fullName: 'P', consent: 'yes', altcha: await solved() }),
    );
    const { rows } = await t.db.pool.query<{ id: string; expires_at: Date }>(
      'SELECT id, expires_at FROM pending_signups WHERE email = $1',
      [email],
    );
    const token = confirmTokens(t.config.trackingSecret).sign(Number(rows[0]!.id), rows[0]!.expires_at);
    const before = await stored();

    const requests: [what: string, method: string, url: string, headers?: Record<string, string>, body?: string][] = [];
    for (const value of HOSTILE_PARAMS) {
      requests.push(['page slug', 'GET', `/subscribe/${value}`]);
      requests.push(['challenge slug', 'GET', `/subscribe/${value}/challenge`]);
      requests.push([
        'submission slug',
        'POST',
        `/subscribe/${value}`,
        { 'content-type': 'application/x-www-form-urlencoded' },
        'email=a%40example.org',
      ]);
      requests.push(['link token', 'GET', `/subscribe/confirm/${value}`]);
      requests.push([
        'confirmation token',
        'POST',
        `/subscribe/confirm/${value}`,
        { 'content-type': 'application/x-www-form-urlencoded' },
        'confirm=yes',
      ]);
      requests.push(['static file', 'GET', `/subscribe/static/${value}`]);
      // The preference centre (issue 25): a hostile token is a page that says the link is not valid.
      requests.push(['preferences token', 'GET', `/preferences/${value}`]);
      requests.push([
        'preferences save token',
        'POST',
        `/preferences/${value}`,
        { 'content-type': 'application/x-www-form-urlencoded' },
        'action=save',
      ]);
      requests.push([
        'preferences hostile body',
        'POST',
        '/preferences/eyJqIjo1fQ.c2ln',
        { 'content-type': 'application/x-www-form-urlencoded' },
        `action=${encodeURIComponent(value)}&form=${encodeURIComponent(value)}`,
      ]);
    }
    const confirm = `/subscribe/confirm/${token}`;
    const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
    requests.push(
      ['a confirmation with an unknown field', 'POST', confirm, FORM, 'confirm=yes&email=other%40example.org'],
      ['a confirmation of 10 KB', 'POST', confirm, FORM, `confirm=${'y'.repeat(10_000)}`],
      ['a confirmation with a NUL byte', 'POST', confirm, FORM, 'confirm=y%00s'],
      ['a confirmation as JSON', 'POST', confirm, JSON_TYPE, '{"confirm":"yes"}'],
      ['a confirmation as text', 'POST', confirm, { 'content-type': 'text/plain' }, 'confirm=yes'],
      ['a forged link', 'POST', `${confirm.slice(0, -2)}xx`, FORM, 'confirm=yes'],
    );
    const failures: string[] = [];
    for (const [what, method, url, headers, body] of requests) {
      const answer = await rawRequest(base, method, url, { ...headers, 'x-forwarded-for': nextClient() }, body);
      const ok = answer.status >= 400 && answer.status < 500;
      if (!ok) failures.push(`${what} ${method} ${url.slice(0, 80)} -> ${answer.status} ${answer.body.slice(0, 160)}`);
    }
    expect(failures).toEqual([]);
    expect(await stored()).toEqual(before);
    // The link itself still works: nothing above used it.
    expect((await rawRequest(base, 'POST', confirm, FORM, 'confirm=yes')).status).toBe(200);
  }, 120_000);
});
