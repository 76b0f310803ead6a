/**
 * Faults an organisation's deployment meets, survived: a campaign of 20,000 contacts sent by two
 * REAL worker processes (`src/workers/main.ts`) and watched by a real API process
 * (`src/http/main.ts`), against a local SES-compatible endpoint counting mails per recipient, while
 *  - RabbitMQ is stopped twice for a few seconds mid-send,
 *  - PostgreSQL is stopped twice for a few seconds mid-send,
 *  - a worker is SIGKILLed three times at random moments and started again,
 *  - an API process under load gets SIGTERM;
 * a member using the API while RabbitMQ is down (reads, tracking and unsubscribes work, a send answers
 * 503, and once the broker is back every send finishes with nothing sent twice); and a 200,000-row
 * import while RabbitMQ, then PostgreSQL, stops in the middle.
 *
 * The services broken here are this file's own (test/support/outages.ts): a PostgreSQL cluster and
 * a RabbitMQ node on free ports, never the machine's. Each case prints mails per address (max), the
 * final job states and the seconds to recover.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import { freePort, startOwnPostgres, startOwnRabbitMq, type OwnService } from '../../test/support/outages.js';
import { startApiProcess, waitFor, type ApiProcess } from '../../test/support/processes.js';
import { seedGeneratedAudience, seedTemplate } from '../../test/support/seed.js';
import { startSesEndpoint, type SesEndpoint } from '../../test/support/ses-endpoint.js';
import { bearer, testAudience, testIssuer, testJwks, testOrgEmailDomain } from '../../test/support/tokens.js';
import { BROKER_UNAVAILABLE } from '../http/errors.js';
import { REQUEST_PUBLISH_WAIT_MS } from '../http/publishing-calls.js';
import { createLogger } from '../logger.js';
import { createTrackingTokens } from '../mail/tracking-tokens.js';
import { RabbitMqMessageQueue } from '../queue/rabbitmq.js';

const CONTACTS = 20_000;
const IMPORT_ROWS = 200_000;
/** How long each outage lasts. */
const OUTAGE_MS = 6_000;
/** After an outage ends: the API ready again, and the workers sending again, within these. */
const READY_WITHIN_S = 5;
const RECOVER_WITHIN_S = 15;
/** The product's default: no case may need the stale sweep to finish. */
const STALE_SECONDS = 120;

const prefix = `t-outage-${randomBytes(5).toString('hex')}.`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let pg: OwnService | undefined;
let mq: OwnService | undefined;
let t: TestApp;
let ses: SesEndpoint;
let auth: string;
let templateId: number;
let workDir: string;
let importDir: string;
let apiPort: number;
let apiProcess: ApiProcess;
/** The identity provider's key set, served for the API processes that take members' calls. */
let jwks: Server;
const processes: ApiProcess[] = [];

function startWorker(name: string, env: Record<string, string> = {}): ApiProcess {
  const worker = startApiProcess('worker', name, {
    DATABASE_URL: t.db.url,
    AMQP_URL: mq!.url,
    QUEUE_PREFIX: prefix,
    SES_ENDPOINT: ses.endpoint,
    SEND_STALE_SECONDS: String(STALE_SECONDS),
    IMPORT_DIR: importDir,
    AWS_SDK_UA_APP_ID: name,
    ...env,
  });
  processes.push(worker);
  return worker;
}

function startApi(name: string, port: number): ApiProcess {
  const api = startApiProcess('http', name, {
    DATABASE_URL: t.db.url,
    AMQP_URL: mq!.url,
    QUEUE_PREFIX: prefix,
    SES_ENDPOINT: ses.endpoint,
    IMPORT_DIR: importDir,
    PORT: String(port),
    HTTP_PROCESSES: '1',
  });
  processes.push(api);
  return api;
}

/** An API process that takes members' calls: it checks their tokens against the test's key set. */
function startMemberApi(name: string, port: number): ApiProcess {
  const api = startApiProcess('http', name, {
    DATABASE_URL: t.db.url,
    AMQP_URL: mq!.url,
    QUEUE_PREFIX: prefix,
    SES_ENDPOINT: ses.endpoint,
    IMPORT_DIR: importDir,
    PORT: String(port),
    HTTP_PROCESSES: '1',
    OIDC_ISSUER: testIssuer,
    OIDC_AUDIENCE: testAudience,
    OIDC_JWKS_URI: `http://127.0.0.1:${(jwks.address() as { port: number }).port}/jwks`,
    ORG_EMAIL_DOMAIN: testOrgEmailDomain,
  });
  processes.push(api);
  return api;
}

async function readyStatus(port: number): Promise<number> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(4_000) });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
}

beforeAll(async () => {
  [pg, mq] = await Promise.all([startOwnPostgres(), startOwnRabbitMq()]);
  workDir = await mkdtemp(join(tmpdir(), 'mailroom-outages-'));
  importDir = join(workDir, 'spool');
  // About 650 mails a second: the campaign lasts half a minute, so both outages land mid-send.
  ses = await startSesEndpoint({ maxSendRate: 700, max24HourSend: -1, keepMail: false });
  const queue = new RabbitMqMessageQueue(mq.url, createLogger({ logLevel: 'silent' }), { prefix });
  t = await createTestApp({
    serverUrl: pg.url,
    env: { AMQP_URL: mq.url, QUEUE_PREFIX: prefix, SES_ENDPOINT: ses.endpoint, IMPORT_DIR: importDir },
    deps: { messageQueueAdapter: queue },
  });
  auth = await bearer();
  jwks = createServer(
    (_req, res) => void testJwks().then((keys) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(keys))),
  );
  await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
  templateId = await seedTemplate(t.db.pool, { html: '<p>Hello {{firstName}} of {{city}}</p><a href="https://example.org/x">X</a>' });
  apiPort = await freePort();
  apiProcess = startApi('api', apiPort);
  await waitFor('the API process to be ready', async () => ((await readyStatus(apiPort)) === 200 ? true : undefined), {
    processes: [apiProcess],
    timeoutMs: 60_000,
  });
}, 120_000);

afterAll(async () => {
  await Promise.allSettled(processes.map((p) => p.kill()));
  await t?.close().catch(() => undefined);
  await ses?.close();
  if (jwks) await new Promise((resolve) => jwks.close(resolve));
  // The node and the cluster go with everything on them (queues, the test database).
  await Promise.allSettled([pg?.close(), mq?.close()]);
  if (workDir) await rm(workDir, { recursive: true, force: true });
}, 120_000);

// ---- probes that ride out the outages they watch ----

/** A probe of the test's own database; undefined while the database is away. */
async function query<R>(text: string, params: unknown[] = []): Promise<R[] | undefined> {
  try {
    return (await t.db.pool.query(text, params)).rows as R[];
  } catch {
    return undefined;
  }
}

const campaignStatus = async (id: number) =>
  (await query<{ status: string; error_message: string | null }>('SELECT status, error_message FROM campaigns WHERE id = $1', [id]))?.[0];

async function jobCounts(id: number): Promise<Record<string, number>> {
  const rows = await query<{ status: string; n: number }>(
    'SELECT status, count(*)::int AS n FROM campaign_jobs WHERE campaign_id = $1 GROUP BY status ORDER BY status',
    [id],
  );
  return Object.fromEntries((rows ?? []).map((row) => [row.status, row.n]));
}

/** Mails SES accepted for the addresses of `domain`. */
function acceptedFor(domain: string): { total: number; max: number } {
  let total = 0;
  let max = 0;
  for (const [to, n] of ses.accepted) {
    if (!to.endsWith(`@${domain}`)) continue;
    total += n;
    max = Math.max(max, n);
  }
  return { total, max };
}

/** Samples /readyz of the API process every 200 ms: (time, status). */
function watchReadiness(port: number) {
  const samples: { at: number; status: number }[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const at = performance.now();
      samples.push({ at, status: await readyStatus(port) });
      await sleep(200);
    }
  })();
  return {
    samples,
    async stop() {
      running = false;
      await loop;
    },
  };
}

/** A campaign ready to send to the audience, and sent unless `send` is false. */
async function sendCampaign(audienceId: number, name: string, { send = true }: { send?: boolean } = {}): Promise<number> {
  const api = () => request(t.app);
  const created = await api().post('/api/campaigns').set('Authorization', auth).send({ name, templateId });
  expect(created.status).toBe(201);
  const id = created.body.id as number;
  const saved = await api().put(`/api/campaigns/${id}`).set('Authorization', auth).send({
    name,
    audienceId,
    templateId,
    fromName: 'News',
    fromEmail: 'newsletter@example.org',
    subject: 'Hi {{firstName}}',
  });
  expect(saved.status).toBe(200);
  if (!send) return id;
  const sent = await api().post(`/api/campaigns/${id}/send`).set('Authorization', auth);
  expect(sent.status).toBe(202);
  return id;
}

interface Outage {
  service: 'PostgreSQL' | 'RabbitMQ';
  /** performance.now() when the service stopped answering, and when it answered again. */
  from: number;
  to: number;
}

/** Stops `service` once the domain has `afterMails` mails, for OUTAGE_MS. */
async function outage(which: 'PostgreSQL' | 'RabbitMQ', domain: string, afterMails: number, watched: ApiProcess[]): Promise<Outage> {
  const service = which === 'PostgreSQL' ? pg! : mq!;
  await waitFor(
    `${afterMails} mails before the ${which} outage`,
    async () => (acceptedFor(domain).total >= afterMails ? true : undefined),
    {
      processes: watched,
      timeoutMs: 120_000,
    },
  );
  await service.stop();
  const from = performance.now();
  await sleep(OUTAGE_MS);
  await service.start();
  return { service: which, from, to: performance.now() };
}

/**
 * Seconds from the outage's end until mails flowed again at half the pace of the 3 s before it (0
 * when they never slowed down); read from SES's answers once the campaign is over.
 */
function recoverySeconds(o: Outage): number {
  const times = ses.acceptedAt;
  const count = (from: number, to: number) => times.filter((at) => at >= from && at < to).length;
  const before = count(o.from - 3_000, o.from) / 3;
  for (let at = o.to; at < o.to + 60_000; at += 100) if (count(at, at + 1_000) >= before / 2) return (at - o.to) / 1000;
  return Infinity;
}

/**
 * The readiness seen around each outage. The API needs the database only: 503 inside a PostgreSQL
 * outage and 200 again within seconds of its end; 200 all through a RabbitMQ outage.
 */
function readinessAround(outages: Outage[], samples: { at: number; status: number }[]): number[] {
  return outages.map((o) => {
    // The probe's own time-out is 2 s: samples taken well inside the outage.
    const inside = samples.filter((s) => s.at > o.from + 500 && s.at < o.to - 2_500);
    expect(inside.length, `readiness samples inside the ${o.service} outage`).toBeGreaterThan(0);
    const expected = o.service === 'PostgreSQL' ? 503 : 200;
    for (const s of inside) expect(s.status, `/readyz during the ${o.service} outage`).toBe(expected);
    const back = samples.find((s) => s.at >= o.to && s.status === 200);
    expect(back, `/readyz 200 after the ${o.service} outage`).toBeDefined();
    return (back!.at - o.to) / 1000;
  });
}

/** The end state every case asserts: sent at most once each, nothing left in transit, the campaign SENT. */
async function expectCampaignSettled(
  id: number,
  domain: string,
  { workerDied, contacts = CONTACTS }: { workerDied: boolean; contacts?: number },
) {
  await waitFor('the campaign to be SENT', async () => ((await campaignStatus(id))?.status === 'SENT' ? true : undefined), {
    timeoutMs: 120_000,
  });
  const counts = await jobCounts(id);
  const mails = acceptedFor(domain);
  expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(contacts);
  expect(counts.QUEUED ?? 0).toBe(0);
  expect(counts.SENDING ?? 0).toBe(0);
  expect(mails.max).toBeLessThanOrEqual(1);
  if (!workerDied) expect(counts.UNKNOWN ?? 0).toBe(0);
  for (const status of Object.keys(counts)) expect(['SENT_WAIT_ACK', 'FAILED', ...(workerDied ? ['UNKNOWN'] : [])]).toContain(status);
  // Every job recorded as sent was received once; every UNKNOWN at most once.
  const sentJobs = await query<{ email: string }>(`SELECT email FROM campaign_jobs WHERE campaign_id = $1 AND status = 'SENT_WAIT_ACK'`, [
    id,
  ]);
  for (const job of sentJobs!) expect(ses.countFor(job.email), job.email).toBe(1);
  return { counts, mails };
}

describe('a campaign of 20,000 contacts, two worker processes', () => {
  it.each([
    ['rides out RabbitMQ stopped twice mid-send', 'RabbitMQ', 'mq'],
    ['rides out PostgreSQL stopped twice mid-send: nothing UNKNOWN, nothing lost', 'PostgreSQL', 'pg'],
  ] as const)(
    '%s',
    async (_title, service, tag) => {
      const domain = `${tag}.outage.example.org`;
      const { id: audienceId } = await seedGeneratedAudience(t.db.pool, CONTACTS, domain);
      const workers = [startWorker(`worker-${tag}-a`), startWorker(`worker-${tag}-b`)];
      const watched = [...workers, apiProcess];
      const readiness = watchReadiness(apiPort);
      const id = await sendCampaign(audienceId, `${service} outage`);
      const outages: Outage[] = [];
      for (const share of [0.2, 0.55]) {
        const o = await outage(service, domain, share * CONTACTS, watched);
        outages.push(o);
      }
      const settled = await expectCampaignSettled(id, domain, { workerDied: false });
      const recovered = outages.map(recoverySeconds);
      await readiness.stop();
      const readyAfter = readinessAround(outages, readiness.samples);
      for (const p of watched) expect(p.running(), `${p.name} still running${p.logs()}`).toBe(true);
      for (const s of recovered) expect(s).toBeLessThanOrEqual(RECOVER_WITHIN_S);
      for (const s of readyAfter) expect(s).toBeLessThanOrEqual(READY_WITHIN_S);
      console.log(`[outages] ${service} stopped twice:`, {
        mailsPerAddressMax: settled.mails.max,
        jobs: settled.counts,
        secondsToResume: recovered,
        secondsToReady: readyAfter,
      });
      for (const worker of workers) expect(await worker.stop()).toEqual({ code: 0, signal: null });
    },
    300_000,
  );

  it('survives a worker SIGKILLed three times at random moments: every contact mailed at most once', async () => {
    const domain = 'kill.outage.example.org';
    const { id: audienceId } = await seedGeneratedAudience(t.db.pool, CONTACTS, domain);
    // The dead worker's claims become UNKNOWN after the stale time: short here, or the campaign would wait two minutes.
    const env = { SEND_STALE_SECONDS: '5' };
    const steady = startWorker('worker-kill-steady', env);
    let victim = startWorker('worker-kill-1', env);
    const id = await sendCampaign(audienceId, 'Worker killed');
    const moments = [0.1 + Math.random() * 0.15, 0.35 + Math.random() * 0.15, 0.6 + Math.random() * 0.15].map((share) =>
      Math.round(share * CONTACTS),
    );
    for (const [n, at] of moments.entries()) {
      await waitFor(`${at} mails before kill ${n + 1}`, async () => (acceptedFor(domain).total >= at ? true : undefined), {
        processes: [steady, victim, apiProcess],
        timeoutMs: 120_000,
      });
      await victim.kill();
      expect((await victim.exited).signal).toBe('SIGKILL');
      victim = startWorker(`worker-kill-${n + 2}`, env);
    }
    const settled = await expectCampaignSettled(id, domain, { workerDied: true });
    // Only what a killed worker had on its way to SES can be UNKNOWN: no more than its call slots
    // (SEND_CONCURRENCY, 50 by default) per kill, whatever batches it held.
    expect(settled.counts.UNKNOWN ?? 0).toBeLessThanOrEqual(3 * 50);
    for (const p of [steady, victim, apiProcess]) expect(p.running(), `${p.name} still running${p.logs()}`).toBe(true);
    console.log('[outages] a worker SIGKILLed three times:', {
      mailsPerAddressMax: settled.mails.max,
      jobs: settled.counts,
      killedAtMails: moments,
    });
    for (const worker of [steady, victim]) expect(await worker.stop()).toEqual({ code: 0, signal: null });
  }, 300_000);
});

describe('an API process stopped with SIGTERM under load', () => {
  it('answers every request in flight (downloads included), then exits', async () => {
    const EXPORTED = 100_000;
    const { id: audienceId } = await seedGeneratedAudience(t.db.pool, EXPORTED, 'export.outage.example.org');
    const port = await freePort();
    const api = startMemberApi('api-sigterm', port);
    try {
      await waitFor('the second API process to be ready', async () => ((await readyStatus(port)) === 200 ? true : undefined), {
        processes: [api],
        timeoutMs: 60_000,
      });
      interface Hit {
        kind: 'download' | 'readyz';
        startedAt: number;
        headersAt?: number;
        endedAt?: number;
        status?: number;
        lines?: number;
        error?: string;
      }
      /** Downloads whose answer has begun and not ended. */
      let streaming = 0;
      /** One request on a connection of its own: when its answer began and ended, or the error that ended it. */
      const hit = (kind: Hit['kind']) =>
        new Promise<Hit>((resolve) => {
          const result: Hit = { kind, startedAt: performance.now() };
          const req = httpRequest(
            {
              host: '127.0.0.1',
              port,
              agent: false,
              method: kind === 'download' ? 'POST' : 'GET',
              path: kind === 'download' ? `/api/audiences/${audienceId}/download` : '/readyz',
              headers: kind === 'download' ? { authorization: auth } : {},
            },
            (res) => {
              result.headersAt = performance.now();
              result.status = res.statusCode;
              if (kind === 'download') {
                streaming += 1;
                res.once('close', () => (streaming -= 1));
              }
              let lines = 0;
              res.on('data', (chunk: Buffer) => {
                for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
              });
              res.on('end', () => resolve({ ...result, lines, endedAt: performance.now() }));
              res.on('aborted', () => resolve({ ...result, error: 'aborted mid-answer' }));
              res.on('error', (err: NodeJS.ErrnoException) => resolve({ ...result, error: err.code ?? err.message }));
            },
          );
          req.on('error', (err: NodeJS.ErrnoException) => resolve({ ...result, error: err.code ?? err.message }));
          req.end();
        });
      const results: Hit[] = [];
      let stopping = false;
      const loop = async (kind: Hit['kind']) => {
        while (!stopping) {
          const result = await hit(kind);
          results.push(result);
          if (result.error && result.headersAt === undefined) return;
        }
      };
      const load = [...Array.from({ length: 3 }, () => loop('download')), ...Array.from({ length: 8 }, () => loop('readyz'))];
      await waitFor(
        'a download to be under way',
        async () => (results.some((r) => r.kind === 'download' && r.status === 200) ? true : undefined),
        {
          processes: [api],
          timeoutMs: 30_000,
        },
      );
      await sleep(300);
      // The signal lands while a download is being answered (on a busy machine one may end before a sleep does).
      await waitFor('a download mid-answer', async () => (streaming > 0 ? true : undefined), {
        processes: [api],
        timeoutMs: 30_000,
        everyMs: 1,
      });
      const sigtermAt = performance.now();
      const exit = await api.stop(30_000);
      stopping = true;
      await Promise.all(load);
      expect(exit, api.logs()).toEqual({ code: 0, signal: null });
      // Every request the process began answering was answered whole: downloads have every contact.
      const begun = results.filter((r) => r.headersAt !== undefined);
      const cut = begun.filter((r) => r.error !== undefined);
      expect(cut, JSON.stringify(cut.slice(0, 5))).toEqual([]);
      for (const r of begun) expect(r.status).toBe(200);
      for (const r of begun.filter((r) => r.kind === 'download')) expect(r.lines).toBe(EXPORTED + 1);
      // In flight: asked before SIGTERM, answered after it. Not "headers before SIGTERM": on a loaded
      // machine a download can still be in its query when the signal comes, and is answered whole later.
      const inFlight = begun.filter((r) => r.startedAt < sigtermAt && r.endedAt! > sigtermAt);
      expect(inFlight.length).toBeGreaterThan(0);
      const turnedAway = results.filter((r) => r.headersAt === undefined);
      // What got no answer at all never reached the app: connections still waiting to be accepted when
      // the process stopped listening (the kernel resets them). Reported, not asserted.
      console.log('[outages] API SIGTERM under load:', {
        answered: begun.length,
        inFlightAtSigterm: inFlight.length,
        downloadsInFlight: inFlight.filter((r) => r.kind === 'download').length,
        turnedAwayAfterSigterm: turnedAway.map((r) => r.error),
      });
    } finally {
      await api.kill();
    }
  }, 120_000);
});

describe('a member while RabbitMQ is down', () => {
  it('reads, and opens, clicks and unsubscribes are recorded; a send and an import answer 503; once it is back every send finishes, nothing twice', async () => {
    const SENDING = 5_000;
    const LATER = 1_000;
    const domain = 'member.outage.example.org';
    const laterDomain = 'later.outage.example.org';
    const { id: audienceId } = await seedGeneratedAudience(t.db.pool, SENDING, domain);
    const { id: laterAudienceId } = await seedGeneratedAudience(t.db.pool, LATER, laterDomain);
    const port = await freePort();
    const member = startMemberApi('api-member', port);
    const workers = [startWorker('worker-member-a'), startWorker('worker-member-b')];
    const watched = [member, ...workers];
    await waitFor('the member API process to be ready', async () => ((await readyStatus(port)) === 200 ? true : undefined), {
      processes: [member],
      timeoutMs: 60_000,
    });
    const api = () => request(`http://127.0.0.1:${port}`);
    const sendingId = await sendCampaign(audienceId, 'Sending when the broker stops');
    const laterId = await sendCampaign(laterAudienceId, 'Sent once the broker is back', { send: false });

    await waitFor('a fifth of the mails before the outage', async () => (acceptedFor(domain).total >= SENDING / 5 ? true : undefined), {
      processes: watched,
      timeoutMs: 120_000,
    });
    await mq!.stop();
    try {
      // Ready all the same: the API process needs the database only.
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ok', checks: { database: 'up', broker: 'down' } });

      // Lists and reads.
      for (const path of ['/api/campaigns', `/api/campaigns/${sendingId}`, `/api/reports/${sendingId}/overview`, '/api/audiences']) {
        const res = await api().get(path).set('Authorization', auth);
        expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
      }
      const quota = await api().get('/api/ses-quota').set('Authorization', auth);
      expect(quota.status).toBe(200);
      expect(quota.body.sendingAndImportsPaused).toBe(true);

      // Opens, clicks and an unsubscribe for mails already sent.
      const [first, second] = (await query<{ id: number; email: string }>(
        `SELECT id, email FROM campaign_jobs WHERE campaign_id = $1 AND status = 'SENT_WAIT_ACK' ORDER BY id LIMIT 2`,
        [sendingId],
      ))!;
      const [link] = (await query<{ id: number }>('SELECT id FROM campaign_links WHERE campaign_id = $1 AND NOT hidden', [sendingId]))!;
      const tokens = createTrackingTokens(t.config.trackingSecret);
      expect(
        (
          await api()
            .get(`/t/o/${tokens.open(first!.id)}`)
            .set('User-Agent', 'Mail/1.0')
        ).status,
      ).toBe(200);
      expect(
        (
          await api()
            .get(`/t/c/${tokens.click(first!.id, link!.id)}`)
            .set('User-Agent', 'Mail/1.0')
        ).status,
      ).toBe(302);
      const left = await api()
        .post(`/unsubscribe/${tokens.unsubscribe(second!.id)}`)
        .type('form')
        .send('List-Unsubscribe=One-Click');
      expect(left.status).toBe(200);
      await waitFor('the open and the click to be recorded', async () => {
        const kinds = await query<{ kind: string }>('SELECT DISTINCT kind FROM tracking_events WHERE job_id = $1 ORDER BY kind', [
          first!.id,
        ]);
        return kinds?.length === 2 ? kinds : undefined;
      });
      expect(await query('SELECT reason FROM suppressions WHERE email_lower = $1', [second!.email.toLowerCase()])).toEqual([
        { reason: 'UNSUBSCRIBE' },
      ]);

      // A send waits for the broker, then answers 503 with the message; the campaign stays a draft.
      const started = performance.now();
      const refused = await api().post(`/api/campaigns/${laterId}/send`).set('Authorization', auth);
      const waited = performance.now() - started;
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual({ message: BROKER_UNAVAILABLE });
      expect(waited).toBeGreaterThanOrEqual(REQUEST_PUBLISH_WAIT_MS - 100);
      expect(waited).toBeLessThan(REQUEST_PUBLISH_WAIT_MS + 5_000);
      expect(await campaignStatus(laterId)).toMatchObject({ status: 'DRAFT' });
      expect(await jobCounts(laterId)).toEqual({});

      // So does an import, and the audience takes none.
      const created = await api().post('/api/audiences').set('Authorization', auth).send({ name: 'Imported while RabbitMQ is down' });
      expect(created.status).toBe(201);
      const imported = await api()
        .post(`/api/audiences/${created.body.id as number}/import/file?type=csv`)
        .set('Authorization', auth)
        .attach('file', Buffer.from('email\nsomeone@import.example.org\n'), 'contacts.csv');
      expect(imported.status).toBe(503);
      expect(imported.body).toEqual({ message: BROKER_UNAVAILABLE });
      expect(await query('SELECT is_importing, source FROM audiences WHERE id = $1', [created.body.id])).toEqual([
        { is_importing: false, source: null },
      ]);
    } finally {
      await mq!.start();
    }

    // The broker is back: the campaign under way finishes, and the refused one goes through now.
    await waitFor('the quota to say sending is no longer paused', async () => {
      const res = await api().get('/api/ses-quota').set('Authorization', auth);
      return res.status === 200 && res.body.sendingAndImportsPaused === false ? true : undefined;
    });
    expect((await api().post(`/api/campaigns/${laterId}/send`).set('Authorization', auth)).status).toBe(202);
    const sending = await expectCampaignSettled(sendingId, domain, { workerDied: false, contacts: SENDING });
    const later = await expectCampaignSettled(laterId, laterDomain, { workerDied: false, contacts: LATER });
    for (const p of watched) expect(p.running(), `${p.name} still running${p.logs()}`).toBe(true);
    console.log('[outages] a member while RabbitMQ is down:', {
      sending: { mailsPerAddressMax: sending.mails.max, jobs: sending.counts },
      sentAfter: { mailsPerAddressMax: later.mails.max, jobs: later.counts },
    });
    for (const worker of workers) expect(await worker.stop()).toEqual({ code: 0, signal: null });
    expect(await member.stop()).toEqual({ code: 0, signal: null });
  }, 300_000);
});

describe('an import of 200,000 rows', () => {
  let csvPath: string;

  beforeAll(async () => {
    csvPath = join(workDir, 'contacts.csv');
    const lines = ['Email,First Name,City'];
    for (let i = 0; i < IMPORT_ROWS; i++) lines.push(`person${i}@import.example.org,Person ${i},City ${i % 97}`);
    await writeFile(csvPath, `${lines.join('\n')}\n`);
  });

  const copiedRows = async () => {
    const rows = await query<{ tuples: string }>(
      `SELECT tuples_processed AS tuples FROM pg_stat_progress_copy
        WHERE datname = current_database() AND relid = 'contacts'::regclass AND command = 'COPY FROM'`,
    );
    return rows?.[0] ? Number(rows[0].tuples) : undefined;
  };

  async function importWith(which: 'PostgreSQL' | 'RabbitMQ') {
    const worker = startWorker(`worker-import-${which}`);
    const api = () => request(t.app);
    const created = await api()
      .post('/api/audiences')
      .set('Authorization', auth)
      .send({ name: `Import, ${which} stopped` });
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    const uploaded = await api().post(`/api/audiences/${id}/import/file?type=csv`).set('Authorization', auth).attach('file', csvPath);
    expect(uploaded.status).toBe(202);
    // One of its COPYs well under way (the importer copies a segment of 5,000 contacts a statement).
    await waitFor('the COPY to be under way', async () => ((await copiedRows()) ?? 0) >= 2_000 || undefined, {
      processes: [worker],
      timeoutMs: 60_000,
      everyMs: 10,
    });
    const service = which === 'PostgreSQL' ? pg! : mq!;
    await service.stop();
    await sleep(OUTAGE_MS);
    await service.start();
    const ended = performance.now();
    const row = await waitFor(
      'the import to end',
      async () => {
        const rows = await query<{ is_importing: boolean; import_error_message: string | null; number_of_contacts: number }>(
          'SELECT is_importing, import_error_message, number_of_contacts FROM audiences WHERE id = $1',
          [id],
        );
        return rows?.[0] && !rows[0].is_importing ? rows[0] : undefined;
      },
      { processes: [worker, apiProcess], timeoutMs: 120_000 },
    );
    const [contacts] = (await query<{ total: number; emails: number }>(
      'SELECT count(*)::int AS total, count(DISTINCT email)::int AS emails FROM contacts WHERE audience_id = $1',
      [id],
    ))!;
    // Whole or nothing: every row once, or none and a message that says why.
    if (row.import_error_message === null) {
      expect(row.number_of_contacts).toBe(IMPORT_ROWS);
      expect(contacts).toEqual({ total: IMPORT_ROWS, emails: IMPORT_ROWS });
    } else {
      expect(row.import_error_message.length).toBeGreaterThan(10);
      expect(contacts).toEqual({ total: 0, emails: 0 });
    }
    for (const p of [worker, apiProcess]) expect(p.running(), `${p.name} still running${p.logs()}`).toBe(true);
    console.log(`[outages] import with ${which} stopped:`, {
      contacts: contacts!.total,
      error: row.import_error_message,
      secondsAfterOutage: (performance.now() - ended) / 1000,
    });
    expect(await worker.stop()).toEqual({ code: 0, signal: null });
    return row;
  }

  it('completes or fails cleanly with RabbitMQ stopped in the middle', async () => {
    expect((await importWith('RabbitMQ')).import_error_message).toBeNull();
  }, 240_000);

  it('completes or fails cleanly with PostgreSQL stopped in the middle', async () => {
    expect((await importWith('PostgreSQL')).import_error_message).toBeNull();
  }, 240_000);
});
