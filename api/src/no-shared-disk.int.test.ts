/**
 * Nothing goes through a shared disk: two API processes and two worker processes, each in a working
 * folder of its own with an IMPORT_DIR of its own (no folder in common), connected only by
 * PostgreSQL, RabbitMQ (queues of this file's own prefix) and an S3-compatible endpoint holding the
 * import spool. Imports are uploaded to either API and run by either worker; a campaign is sent by
 * both workers to a local SES-compatible endpoint; opens, clicks and signed SNS events are spread
 * over both APIs. Each happens exactly once: contacts imported once, one mail per address, counts
 * right, spooled uploads deleted, and nothing written to any process's folders.
 */
import { createSign, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_AMQP_URL } from '../test/support/app.js';
import { createTestDatabase, type TestDatabase } from '../test/support/db.js';
import { startApiProcess, waitFor, type ApiProcess } from '../test/support/processes.js';
import { deleteProductQueues } from '../test/support/queues.js';
import { startS3Endpoint, type S3Endpoint } from '../test/support/s3.js';
import { seedTemplate } from '../test/support/seed.js';
import { startSesEndpoint, type SesEndpoint } from '../test/support/ses-endpoint.js';
import { bearer, testAudience, testIssuer, testJwks, testOrgEmailDomain } from '../test/support/tokens.js';
import { stringToSign, type SnsMessage } from './services/ses-events/sns-message.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../test/fixtures/sns');
const SNS_KEY = readFileSync(join(FIXTURES, 'signing-key.pem'), 'utf8');
const CERT_URL = 'https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-0123456789abcdef.pem';
const TOPIC = 'arn:aws:sns:eu-west-1:123456789012:mailroom-ses-events';
const prefix = `t-noshare-${randomBytes(5).toString('hex')}.`;

/** A file of several S3 parts (a multipart upload), one small file, one pasted text. */
const LARGE_ROWS = 150_000;
const SMALL_ROWS = 1_500;
const PASTED_ROWS = 300;
const TRACKED = 40;
const EVENTS = 10;

let db: TestDatabase;
let s3: S3Endpoint;
let ses: SesEndpoint;
let jwks: Server;
let root: string;
let auth: string;
const apis: { process: ApiProcess; url: string }[] = [];
const workers: ApiProcess[] = [];
/** Every folder a process was given: its working folder holds its IMPORT_DIR and its credentials. */
const folders: { workDir: string; importDir: string }[] = [];

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}

/**
 * A process as on a host of its own: its working folder, its IMPORT_DIR inside it, and S3
 * credentials in a profile file there (the SDK's default chain), so no AWS key is in its environment.
 */
async function start(entry: 'http' | 'worker', name: string, env: Record<string, string>): Promise<ApiProcess> {
  const workDir = join(root, name);
  const importDir = join(workDir, 'imports');
  await mkdir(workDir, { recursive: true });
  await writeFile(
    join(workDir, 'credentials'),
    `[default]\naws_access_key_id = ${s3.env.AWS_ACCESS_KEY_ID}\naws_secret_access_key = ${s3.env.AWS_SECRET_ACCESS_KEY}\n`,
  );
  folders.push({ workDir, importDir });
  return startApiProcess(
    entry,
    name,
    {
      ...env,
      IMPORT_DIR: importDir,
      AWS_SHARED_CREDENTIALS_FILE: join(workDir, 'credentials'),
      AWS_CONFIG_FILE: join(workDir, 'config'),
      AWS_SDK_UA_APP_ID: name,
    },
    { cwd: workDir },
  );
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mailroom-no-shared-disk-'));
  db = await createTestDatabase();
  s3 = await startS3Endpoint();
  ses = await startSesEndpoint({ maxSendRate: 1000, max24HourSend: -1 });
  const keys = JSON.stringify(await testJwks());
  jwks = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(keys));
  await new Promise<void>((done) => jwks.listen(0, '127.0.0.1', done));
  auth = await bearer();

  const ports = [await freePort(), await freePort()];
  const shared: Record<string, string> = {
    DATABASE_URL: db.url,
    AMQP_URL: TEST_AMQP_URL,
    QUEUE_PREFIX: prefix,
    S3_BUCKET: s3.env.S3_BUCKET!,
    S3_ENDPOINT: s3.env.S3_ENDPOINT!,
    S3_FORCE_PATH_STYLE: 'true',
    AWS_REGION: 'us-east-1',
    SES_ENDPOINT: ses.endpoint,
    OIDC_ISSUER: testIssuer,
    OIDC_AUDIENCE: testAudience,
    OIDC_JWKS_URI: `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks`,
    ORG_EMAIL_DOMAIN: testOrgEmailDomain,
    PUBLIC_URL: `http://127.0.0.1:${ports[0]}`,
    TRACKING_SECRET: 'no-shared-disk-tracking-secret',
    SNS_TOPIC_ARNS: TOPIC,
    EMBEDDED_SNS_CERTIFICATE_FILE: join(FIXTURES, 'signing-cert.pem'),
    HTTP_PROCESSES: '1',
  };
  for (const [i, port] of ports.entries()) {
    const process = await start('http', `api-${i + 1}`, { ...shared, PORT: String(port) });
    apis.push({ process, url: `http://127.0.0.1:${port}` });
  }
  for (const api of apis) {
    await waitFor(
      `${api.process.name} to answer`,
      () =>
        fetch(`${api.url}/readyz`).then(
          (r) => (r.ok ? true : undefined),
          () => undefined,
        ),
      {
        processes: [api.process],
      },
    );
  }
  for (const i of [1, 2]) workers.push(await start('worker', `worker-${i}`, shared));
  // Both workers consume before any work is queued.
  await waitFor(
    'both workers to consume',
    async () => (workers.every((w) => w.output.join('').includes('"msg":"workers started"')) ? true : undefined),
    { processes: workers, timeoutMs: 30_000 },
  );
}, 120_000);

afterAll(async () => {
  await Promise.allSettled([...apis.map((a) => a.process.kill()), ...workers.map((w) => w.kill())]);
  jwks?.close();
  await ses?.close();
  await s3?.close();
  await db?.drop();
  await deleteProductQueues(TEST_AMQP_URL, prefix);
  await rm(root, { recursive: true, force: true });
}, 60_000);

const everyProcess = () => [...apis.map((a) => a.process), ...workers];

function call(api: number, path: string, init: RequestInit = {}) {
  return fetch(`${apis[api]!.url}${path}`, { ...init, headers: { authorization: auth, ...init.headers } });
}

async function json<T>(response: Response | Promise<Response>, status: number): Promise<T> {
  const r = await response;
  const text = await r.text();
  expect(r.status, text).toBe(status);
  return (text ? JSON.parse(text) : undefined) as T;
}

async function createAudience(api: number, name: string): Promise<number> {
  return (
    await json<{ id: number }>(
      call(api, '/api/audiences', { method: 'POST', body: JSON.stringify({ name }), headers: { 'content-type': 'application/json' } }),
      201,
    )
  ).id;
}

function contactsCsv(rows: number, domain: string): string {
  let csv = 'email,firstName,city\n';
  for (let i = 0; i < rows; i++) csv += `person${i}@${domain},First${i},City ${i % 100}\n`;
  return csv;
}

async function uploadFile(api: number, audienceId: number, csv: string): Promise<void> {
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'contacts.csv');
  await json(call(api, `/api/audiences/${audienceId}/import/file?type=csv`, { method: 'POST', body: form }), 202);
}

function pastedForm(text: string): FormData {
  const form = new FormData();
  form.append('file', text);
  return form;
}

async function importedAudience(audienceId: number) {
  return waitFor(
    `audience ${audienceId} to be imported`,
    async () => {
      const { rows } = await db.pool.query<{ is_importing: boolean; number_of_contacts: number; import_error_message: string | null }>(
        'SELECT is_importing, number_of_contacts, import_error_message FROM audiences WHERE id = $1',
        [audienceId],
      );
      return rows[0] && !rows[0].is_importing ? rows[0] : undefined;
    },
    { processes: everyProcess(), timeoutMs: 120_000, everyMs: 200 },
  );
}

function signedEvent(message: Record<string, unknown>, messageId = `sns-${randomBytes(6).toString('hex')}`): string {
  const envelope: SnsMessage = {
    Type: 'Notification',
    MessageId: messageId,
    TopicArn: TOPIC,
    Message: JSON.stringify(message),
    Timestamp: new Date().toISOString(),
    SignatureVersion: '2',
    SigningCertURL: CERT_URL,
    Signature: '',
  };
  const signer = createSign('RSA-SHA256');
  signer.update(stringToSign(envelope), 'utf8');
  return JSON.stringify({ ...envelope, Signature: signer.sign(SNS_KEY, 'base64') });
}

const postEvent = (api: number, body: string) =>
  fetch(`${apis[api]!.url}/webhooks/ses`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'text/plain; charset=UTF-8', 'x-amz-sns-message-type': 'Notification' },
  });

/** An address of the mail: the same path on the other API process. */
const onApi = (api: number, address: string) => apis[api]!.url + new URL(address).pathname;

describe('two API and two worker processes with no folder in common', () => {
  it('import, send, track and take SES events through PostgreSQL, RabbitMQ and S3 only, each exactly once', async () => {
    // Imports: uploaded to either API; the spool is the bucket.
    const large = await createAudience(0, 'Large, through API 1');
    const small = await createAudience(1, 'Small, through API 2');
    const pasted = await createAudience(1, 'Pasted, through API 2');
    await Promise.all([
      uploadFile(0, large, contactsCsv(LARGE_ROWS, 'large.example.org')),
      uploadFile(1, small, contactsCsv(SMALL_ROWS, 'small.example.org')),
      json(
        call(1, `/api/audiences/${pasted}/import/file?type=text`, {
          method: 'POST',
          body: pastedForm(contactsCsv(PASTED_ROWS, 'pasted.example.org')),
        }),
        202,
      ),
    ]);
    for (const [id, rows] of [
      [large, LARGE_ROWS],
      [small, SMALL_ROWS],
      [pasted, PASTED_ROWS],
    ] as const) {
      expect(await importedAudience(id)).toEqual({ is_importing: false, number_of_contacts: rows, import_error_message: null });
      const { rows: stored } = await db.pool.query<{ n: number; distinct: number }>(
        'SELECT count(*)::int AS n, count(DISTINCT lower(email))::int AS distinct FROM contacts WHERE audience_id = $1',
        [id],
      );
      expect(stored[0]).toEqual({ n: rows, distinct: rows });
    }
    // The large file went up in parts (a multipart upload), and every spooled upload is gone.
    expect(s3.requests.get('POST uploads') ?? 0).toBeGreaterThanOrEqual(1);
    await waitFor('the spooled uploads to be deleted', async () => ((await s3.objects()).length === 0 ? true : undefined));
    expect(await s3.pendingUploads()).toEqual([]);

    // A campaign created on API 2, sent through API 1, by both workers.
    const templateId = await seedTemplate(db.pool, { html: '<p>Hello {{firstName}}</p><a href="https://example.org/offer">Offer</a>' });
    const campaign = (
      await json<{ id: number }>(
        call(1, '/api/campaigns', {
          method: 'POST',
          body: JSON.stringify({ name: 'No shared disk', templateId }),
          headers: { 'content-type': 'application/json' },
        }),
        201,
      )
    ).id;
    await json(
      call(1, `/api/campaigns/${campaign}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'No shared disk',
          audienceId: small,
          templateId,
          fromName: 'News',
          fromEmail: `newsletter@${testOrgEmailDomain}`,
          subject: 'Hi {{firstName}}',
        }),
      }),
      200,
    );
    await json(call(0, `/api/campaigns/${campaign}/send`, { method: 'POST' }), 202);
    await waitFor(
      'the campaign to be sent',
      async () => {
        const { rows } = await db.pool.query<{ status: string }>('SELECT status FROM campaigns WHERE id = $1', [campaign]);
        return rows[0]?.status === 'SENT' ? true : undefined;
      },
      { processes: everyProcess(), timeoutMs: 120_000, everyMs: 200 },
    );
    const mails = ses.mails.filter((mail) => mail.to.endsWith('@small.example.org'));
    expect(mails).toHaveLength(SMALL_ROWS);
    for (let i = 0; i < SMALL_ROWS; i++) expect(ses.countFor(`person${i}@small.example.org`)).toBe(1);
    for (const worker of ['worker-1', 'worker-2']) {
      expect(mails.filter((mail) => mail.userAgent.includes(`app/${worker}`)).length, worker).toBeGreaterThan(0);
    }

    // Opens and clicks on both APIs: each mail opened on one and again on the other, clicked on one.
    const tracked = mails.slice(0, TRACKED);
    const hits: Promise<Response>[] = [];
    for (const [i, mail] of tracked.entries()) {
      const pixel = /src="([^"]+\/t\/o\/[^"]+)"/.exec(mail.html)?.[1];
      // The first link a person sees: the hidden link (only scanners follow it) left out.
      const click = /href="([^"]+\/t\/c\/[^"]+)"/.exec(mail.html.replace(/<a\b[^>]*\bdata-hidden-link\b[^>]*>/g, ''))?.[1];
      expect(pixel && click, mail.html).toBeTruthy();
      hits.push(fetch(onApi(i % 2, pixel!)), fetch(onApi((i + 1) % 2, pixel!)), fetch(onApi((i + 1) % 2, click!), { redirect: 'manual' }));
    }
    for (const hit of await Promise.all(hits)) expect([200, 302]).toContain(hit.status);
    await waitFor(
      'the hits of both APIs to be recorded',
      async () => {
        const { rows } = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM tracking_events WHERE campaign_id = $1', [
          campaign,
        ]);
        return rows[0]!.n === 3 * TRACKED ? true : undefined;
      },
      { processes: everyProcess(), timeoutMs: 20_000 },
    );
    const { rows: jobsTracked } = await db.pool.query<{ opened: number; clicked: number }>(
      'SELECT count(opened_at)::int AS opened, count(clicked_at)::int AS clicked FROM campaign_jobs WHERE campaign_id = $1',
      [campaign],
    );
    expect(jobsTracked[0]).toEqual({ opened: TRACKED, clicked: TRACKED });
    const { rows: links } = await db.pool.query<{ clicks: number; unique_clicks: number }>(
      'SELECT clicks, unique_clicks FROM campaign_links WHERE campaign_id = $1 AND NOT hidden',
      [campaign],
    );
    expect(links).toEqual([{ clicks: TRACKED, unique_clicks: TRACKED }]);

    // SES events, signed as SNS signs them, on both APIs; one of them delivered to both.
    const events = mails.slice(TRACKED, TRACKED + EVENTS);
    const posted: Promise<Response>[] = [];
    for (const [i, mail] of events.entries()) {
      const kind =
        i === 0
          ? { eventType: 'Bounce', bounce: { bounceType: 'Permanent', bouncedRecipients: [{ emailAddress: mail.to }] } }
          : { eventType: 'Delivery', delivery: {} };
      const body = signedEvent({ ...kind, mail: { messageId: mail.messageId } });
      posted.push(postEvent(i % 2, body));
      if (i === 1) posted.push(postEvent(1, body));
    }
    for (const answer of await Promise.all(posted)) expect(answer.status).toBe(204);
    const { rows: outcomes } = await db.pool.query<{ status: string; bounce_type: string | null; n: number }>(
      `SELECT status, bounce_type, count(*)::int AS n FROM campaign_jobs WHERE campaign_id = $1 AND email = ANY($2) GROUP BY 1, 2 ORDER BY 1`,
      [campaign, events.map((mail) => mail.to)],
    );
    expect(outcomes).toEqual([
      { status: 'SENT_SUCCESS', bounce_type: null, n: EVENTS - 1 },
      { status: 'SENT_WAIT_ACK', bounce_type: 'HARD', n: 1 },
    ]);
    const { rows: suppressed } = await db.pool.query('SELECT email_lower FROM suppressions');
    expect(suppressed).toEqual([{ email_lower: events[0]!.to.toLowerCase() }]);
    const { rows: applied } = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM sns_messages');
    expect(applied[0]!.n).toBe(EVENTS);

    // Nothing went through any process's folders: no IMPORT_DIR was made, nothing but the credentials was written.
    for (const { workDir } of folders) expect(await readdir(workDir)).toEqual(['credentials']);
    for (const process of everyProcess()) expect(process.running(), process.logs()).toBe(true);
  }, 300_000);
});
