/**
 * The gaps of the contract's validator, closed: a numeric parameter spelled 'Infinity' is a 400; a
 * multipart upload the server cannot read is the client's fault: a form cut short or malformed is
 * a 400, and an upload the client abandons mid-body is a 4xx logged at debug, never a 500 at error.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import { bearer } from '../../test/support/tokens.js';

interface LogLine {
  level: number;
  msg: string;
  req?: { url?: string };
  status?: number;
}

const WARN = 40;
const BOUNDARY = 'upload-boundary';
const formStart = Buffer.from(
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="contacts.csv"\r\nContent-Type: text/csv\r\n\r\nemail,name\n`,
);

describe('gaps of the contract validator', () => {
  let t: TestApp;
  let server: Server;
  let base: string;
  let auth: string;
  let audienceId: number;
  const lines: LogLine[] = [];

  beforeAll(async () => {
    const logger = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line) as LogLine) });
    t = await createTestApp({ deps: { logger } });
    server = createServer(t.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    auth = await bearer();
    audienceId = (await request(t.app).post('/api/audiences').set('Authorization', auth).send({ name: 'Uploads' })).body.id;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await t?.close();
  });

  const importPath = () => `/api/audiences/${audienceId}/import/file?type=csv`;

  it("answers 400 to a numeric parameter spelled 'Infinity' or overflowing, which AJV lets past its bounds", async () => {
    for (const url of [
      '/api/audiences?page=Infinity',
      '/api/audiences?limit=-Infinity',
      '/api/audiences?page=1e999',
      '/api/audiences/Infinity',
      `/api/audiences/${audienceId}/contacts?limit=Infinity`,
      '/api/reports/1/retry-job/1e999',
    ]) {
      const res = await request(t.app).get(url).set('Authorization', auth);
      if (url.includes('retry-job')) {
        // A POST route: the GET is refused as such, the POST for its number.
        expect(res.status).toBe(405);
        expect((await request(t.app).post(url).set('Authorization', auth)).status, url).toBe(400);
      } else {
        expect(res.status, url).toBe(400);
        expect(res.body.message, url).toMatch(/^The (parameter "\w+"|"\w+" in the address) must be a number\.$/);
      }
    }
    // A string parameter may say Infinity.
    expect((await request(t.app).get('/api/audiences?name=Infinity').set('Authorization', auth)).status).toBe(200);
  });

  it('answers 400 to a form cut short or malformed, and the audience can still import', async () => {
    const cut = Buffer.concat([formStart, Buffer.from('ann@example.org,Ann\nbob@exa')]);
    const malformed = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition\r\n\r\nx\r\n--${BOUNDARY}--\r\n`);
    for (const body of [cut, malformed]) {
      const res = await request(t.app)
        .post(importPath())
        .set('Authorization', auth)
        .set('Content-Type', `multipart/form-data; boundary=${BOUNDARY}`)
        .send(body);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('The upload was cut short or is not a valid form');
    }
    const ok = await request(t.app)
      .post(importPath())
      .set('Authorization', auth)
      .attach('file', Buffer.from('email\nann@example.org\n'), 'contacts.csv');
    expect(ok.status).toBe(202);
  });

  it('logs an upload abandoned mid-body at debug, as a 4xx, and keeps serving', async () => {
    const other = (await request(t.app).post('/api/audiences').set('Authorization', auth).send({ name: 'Abandoned' })).body.id as number;
    const url = `/api/audiences/${other}/import/file?type=csv`;
    lines.length = 0;
    await new Promise<void>((resolve) => {
      const req = httpRequest(`${base}${url}`, {
        method: 'POST',
        headers: {
          authorization: auth,
          'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
          'content-length': 10_000_000,
        },
      });
      req.on('error', () => resolve());
      req.write(formStart);
      req.write(Buffer.from('ann@example.org,Ann\n'.repeat(10_000)));
      // The client gives up half-way.
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 200);
    });
    // The error handler logs the refusal with its status; the request log says the client hung up.
    const rejection = () => lines.find((line) => line.msg === 'request rejected');
    const deadline = Date.now() + 5_000;
    while (!rejection() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(rejection()?.status).toBe(400);
    expect(lines.filter((line) => line.req?.url === url).map((line) => line.msg)).toContain('request aborted');
    expect(lines.filter((line) => line.level >= WARN)).toEqual([]);
    // Nothing was left importing, and the app still answers.
    const audience = await request(t.app).get(`/api/audiences/${other}`).set('Authorization', auth);
    expect(audience.body).toMatchObject({ isImporting: false, source: null });
  });
});
