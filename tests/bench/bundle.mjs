#!/usr/bin/env node
/**
 * `pnpm bench bundle`: how much JavaScript (gzip level 9, file by file) the browser loads for the
 * first signed-in view of /audiences, how much more for a later move to /campaigns, and then how much
 * more for a move from there to a campaign's report (/campaigns/reports/{id}, Overview tab, with figures,
 * a timeline and domains to show: the report's charts load there and only there).
 * Budget: first view <= 300 KB, move <= 60 KB, the report's move <= 120 KB more than the 62.1 KB it
 * was before its charts (issue 16).
 *
 * Methods, best first (the one used is printed):
 *   --stack    Chromium against the whole product (`pnpm --filter @mailroom/api stack`, web on :8080 or
 *              $PORT), signed in through the embedded provider's real login form as the seeded member.
 *              The stack takes its settings from the environment (as root, embedded PostgreSQL cannot
 *              initialise: give DATABASE_URL, e.g. an empty database on the machine's PostgreSQL).
 *   (default)  Chromium against the built dist/ folders served by packages/static-server/serve.mjs on
 *              free local ports, with a stand-in /config.json, /remotes.json and API answers, and a
 *              signed-in session put into oidc-client-ts's store before the page starts: the same
 *              bundles, loaded the way the browser loads them, without a database or provider.
 *   --static   No browser (also the fallback when Chromium is missing): the files the shell's entry
 *              and the remotes' manifests name, read from dist/ (an estimate: it cannot see which
 *              shared chunk copy the runtime picks, so identical chunks are counted once).
 * Needs the frontends built (`pnpm -r --filter ./shell --filter './mfe-*' build`).
 * The last line printed is one JSON object.
 */
/* global window -- code the browser runs (page.addInitScript) */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { setTimeout, clearTimeout } from 'node:timers';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { REMOTES, REMOTE_NAMES, remoteManifestUrl } from '@mailroom/mf-contract/remotes';
import { serveStatic } from '../../packages/static-server/serve.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
// The report's move: 62.1 KB before its Overview had charts (issue 16), plus the 120 KB they may add.
const BUDGET = { firstViewKbGzip: 300, moveKbGzip: 60, reportMoveKbGzip: 182.1 };
const MEMBER = { email: 'mia@example.org', password: 'mailroom', firstName: 'Mia', lastName: 'Member' };

const args = new Set(process.argv.slice(2));
const kb = (bytes) => Math.round((bytes / 1024) * 10) / 10;
const gzipBytes = (buffer) => gzipSync(buffer, { level: 9 }).length;

function requireBuilt() {
  const missing = [
    'shell/dist/index.html',
    ...REMOTE_NAMES.map((name) => `${REMOTES[name].dir}/dist/${REMOTES[name].manifestPath}`),
  ].filter((file) => !existsSync(join(root, file)));
  if (missing.length) {
    console.error(`Build the frontends first (pnpm -r --filter ./shell --filter './mfe-*' build); missing: ${missing.join(', ')}`);
    process.exit(1);
  }
}

async function loadPlaywright() {
  if (!existsSync(CHROMIUM)) return null;
  try {
    const { chromium } = await import('@playwright/test');
    return chromium;
  } catch {
    return null;
  }
}

/**
 * Counts every script the page receives (url -> gzip size), and apart from them every style sheet:
 * Griffel's CSS is extracted into .css files at build time, which are not JavaScript but still loaded.
 */
function trackScripts(page) {
  const scripts = new Map();
  const styles = new Map();
  const pending = new Set();
  page.on('response', (response) => {
    const url = response.url();
    const type = response.request().resourceType();
    const { pathname } = new URL(url);
    const isScript = type === 'script' || /\.m?js(\?|$)/.test(pathname);
    const isStyle = !isScript && (type === 'stylesheet' || /\.css$/.test(pathname));
    const into = isScript ? scripts : isStyle ? styles : null;
    if (!into || into.has(url) || !response.ok()) return;
    const read = response
      .body()
      .then((body) => into.set(url, gzipBytes(body)))
      .catch(() => {})
      .finally(() => pending.delete(read));
    pending.add(read);
  });
  return {
    async settle() {
      while (pending.size) await Promise.all([...pending]);
    },
    snapshot: () => new Map(scripts),
    styles: () => new Map(styles),
  };
}

const sum = (map) => [...map.values()].reduce((total, size) => total + size, 0);

function listFiles(title, files) {
  console.log(`  ${title}`);
  for (const [url, size] of [...files].sort((a, b) => b[1] - a[1])) console.log(`    ${String(kb(size)).padStart(7)} KB  ${url}`);
}

/**
 * Opens /audiences signed in, then moves to /campaigns through the drawer, then (given `report`, a
 * campaign the API answers for) to that campaign's report; returns the figures.
 */
async function measure(page, baseUrl, report = null) {
  const scripts = trackScripts(page);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });

  const title = (text) => page.getByRole('main').getByRole('heading', { level: 1, name: text, exact: true });
  await page.goto(`${baseUrl}/audiences`);
  await title('Audiences').waitFor({ timeout: 60_000 });
  await page.waitForLoadState('networkidle');
  await scripts.settle();
  const first = scripts.snapshot();
  const firstCss = scripts.styles();

  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Campaigns' }).click();
  await title('Campaigns').waitFor({ timeout: 60_000 });
  await page.waitForLoadState('networkidle');
  await scripts.settle();
  const move = new Map([...scripts.snapshot()].filter(([url]) => !first.has(url)));
  const moveCss = new Map([...scripts.styles()].filter(([url]) => !firstCss.has(url)));
  if (!report) return { first, move, firstCss, moveCss };

  // The shell's router follows the address on popstate, as after a click on the campaign's report link.
  await page.evaluate((path) => {
    window.history.pushState({}, '', path);
    window.dispatchEvent(new window.PopStateEvent('popstate'));
  }, report.path);
  await title(report.name).waitFor({ timeout: 60_000 });
  await page.getByRole('region', { name: 'Timeline' }).waitFor({ timeout: 60_000 });
  await page.waitForLoadState('networkidle');
  await scripts.settle();
  const before = new Map([...first, ...move]);
  const reportMove = new Map([...scripts.snapshot()].filter(([url]) => !before.has(url)));
  const cssBefore = new Map([...firstCss, ...moveCss]);
  const reportMoveCss = new Map([...scripts.styles()].filter(([url]) => !cssBefore.has(url)));
  return { first, move, firstCss, moveCss, reportMove, reportMoveCss };
}

/** A sent campaign with a day of opens and clicks, the answers the report's Overview tab asks for. */
function benchReport() {
  const id = 1;
  const start = Date.parse('2024-04-02T09:00:00.000Z');
  const hour = 3_600_000;
  const campaign = {
    id,
    name: 'Bench campaign',
    status: 'SENT',
    audienceId: 1,
    audienceName: 'Bench audience',
    numberOfContacts: 1000,
    contactCount: 1000,
    fromName: 'Mia Member',
    fromEmail: 'news@example.org',
    subject: 'Bench news',
    previewText: null,
    templateId: 1,
    template: null,
    html: '<!DOCTYPE html><html><body><p>Hello</p></body></html>',
    deliveryDate: new Date(start).toISOString(),
    updatedAt: new Date(start).toISOString(),
    updatedByEmail: MEMBER.email,
    jobsSent: 990,
    jobsFailed: 10,
    uniqueOpens: 500,
    uniqueClicks: 120,
    errorMessage: null,
  };
  const figures = { sent: 990, delivered: 970, bouncedHard: 12, bouncedSoft: 8, complaints: 2, unsubscribed: 4 };
  const buckets = Array.from({ length: 24 }, (_, i) => ({
    start: new Date(start + i * hour).toISOString(),
    hours: 1,
    sent: i < 2 ? 495 : 0,
    opensHuman: 40 - i,
    opensMachine: i < 3 ? 60 : 2,
    clicksHuman: 10 - Math.floor(i / 3),
    clicksMachine: i < 2 ? 15 : 0,
  }));
  const domain = (name, sent) => ({
    domain: name,
    sent,
    delivered: sent - 5,
    bouncedHard: 3,
    bouncedSoft: 2,
    complaints: 0,
    openedHuman: sent / 3,
    clickedHuman: sent / 10,
    flagged: false,
  });
  return {
    path: `/campaigns/reports/${id}`,
    name: campaign.name,
    json: {
      [`/api/campaigns/${id}`]: campaign,
      [`/api/reports/${id}/overview-stat`]: {
        campaign,
        jobsSent: 990,
        jobsFailed: 10,
        totalContactsCount: 1000,
        jobsUnknown: 0,
        jobsUnconfirmed: 0,
        unconfirmedResendAfterMinutes: 60,
      },
      [`/api/reports/${id}/overview`]: {
        ...figures,
        openedHuman: 400,
        openedMachine: 100,
        clickedHuman: 90,
        clickedMachine: 30,
        failed: 10,
        unknown: 0,
        totalContactsCount: 1000,
        sendingStartedAt: campaign.deliveryDate,
      },
      [`/api/reports/${id}/timeline`]: { sendingStartedAt: campaign.deliveryDate, buckets },
      [`/api/reports/${id}/domains`]: { domains: [domain('gmail.com', 600), domain('outlook.com', 300), domain(null, 90)] },
    },
  };
}

/** The built bundles on free ports, with stand-ins for the runtime config, the API and the identity provider. */
async function measureLocal(chromium) {
  const listen = (server) =>
    new Promise((done, fail) => {
      server.once('listening', () => done(server.address().port));
      server.once('error', fail);
    });
  const servers = [];
  try {
    const remotes = {};
    for (const name of REMOTE_NAMES) {
      const server = serveStatic(join(root, REMOTES[name].dir, 'dist'), 0, { host: '127.0.0.1' });
      servers.push(server);
      remotes[name] = remoteManifestUrl(name, `http://127.0.0.1:${await listen(server)}`);
    }
    const report = benchReport();
    const page0 = { currentPage: 1, itemCount: 0, itemsPerPage: 10, totalItems: 0, totalPages: 0 };
    const emptyList = { items: [], meta: page0 };
    const json = {
      '/remotes.json': remotes,
      '/api/ses-quota': { emailsSent: 0, remainingSends: 200, quotaUsedPercentage: 0, maxSendRate: 1, max24HourSend: 200 },
      // The shell reads the member's role before it shows a remote (issue 27).
      '/api/me': { email: 'mia@example.org', firstName: 'Mia', lastName: 'Member', role: 'admin', apiKey: false },
      '/api/audiences': emptyList,
      '/api/templates': emptyList,
      '/api/campaigns': { data: emptyList },
      ...report.json,
    };
    const shell = serveStatic(join(root, 'shell', 'dist'), 0, { host: '127.0.0.1', json });
    servers.push(shell);
    const baseUrl = `http://127.0.0.1:${await listen(shell)}`;
    const authority = `${baseUrl}/oidc`;
    json['/config.json'] = {
      apiBaseUrl: '',
      oidc: { authority, clientId: 'mailroom-shell', scope: 'openid profile email' },
      orgDomain: 'example.org',
      orgName: 'Example',
      stockPhoto: null,
    };

    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      // A signed-in member as oidc-client-ts keeps it (WebStorageStateStore on sessionStorage).
      const now = Math.floor(Date.now() / 1000);
      const user = {
        access_token: 'bench-token',
        token_type: 'Bearer',
        scope: 'openid profile email',
        expires_at: now + 3600,
        profile: {
          sub: 'bench',
          iss: authority,
          aud: 'mailroom-shell',
          iat: now,
          exp: now + 3600,
          email: MEMBER.email,
          given_name: MEMBER.firstName,
          family_name: MEMBER.lastName,
        },
      };
      await context.addInitScript(
        ([key, value]) => window.sessionStorage.setItem(key, value),
        [`oidc.user:${authority}:mailroom-shell`, JSON.stringify(user)],
      );
      const page = await context.newPage();
      return {
        method: 'browser, built bundles on local static servers (stand-in config, API and session)',
        ...(await measure(page, baseUrl, report)),
      };
    } finally {
      await browser.close();
    }
  } finally {
    for (const server of servers) server.close();
  }
}

/** The whole product through `pnpm --filter @mailroom/api stack`, signed in through the real login form. */
async function measureStack(chromium) {
  const stack = spawn('pnpm', ['--filter', '@mailroom/api', 'stack'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const stop = () => {
    try {
      process.kill(-stack.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  };
  try {
    const baseUrl = await new Promise((done, fail) => {
      let output = '';
      const timer = setTimeout(() => fail(new Error(`the stack did not start within 180 s:\n${output.slice(-2000)}`)), 180_000);
      const read = (chunk) => {
        output += chunk;
        const match = /Mailroom is running at (\S+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          done(match[1].replace(/\/$/, ''));
        }
      };
      stack.stdout.on('data', read);
      stack.stderr.on('data', read);
      stack.once('exit', (code) => fail(new Error(`the stack exited (${code}):\n${output.slice(-2000)}`)));
    });

    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const login = await context.newPage();
      const config = await (await login.request.get(`${baseUrl}/config.json`)).json();
      await login.goto(`${baseUrl}/login`);
      await login.getByRole('button', { name: `Sign In With ${config.orgName} ID` }).click();
      await login.getByLabel('Email', { exact: true }).fill(MEMBER.email);
      await login.getByLabel('Password', { exact: true }).fill(MEMBER.password);
      await login.getByRole('button', { name: 'Sign in', exact: true }).click();
      await login.waitForURL((url) => url.pathname === '/audiences', { timeout: 30_000 });
      await login.close();

      // A fresh page of the signed-in browser, with the HTTP cache off: everything the view needs is fetched.
      const page = await context.newPage();
      return { method: `browser, whole stack at ${baseUrl} (real sign-in)`, ...(await measure(page, baseUrl)) };
    } finally {
      await browser.close();
    }
  } finally {
    stop();
  }
}

/** Without a browser: what the shell's dist and the remotes' manifests say is loaded. */
function measureStatic() {
  const read = (file) => readFileSync(file);
  // Rspack emits a shared module's chunk once per chunk group that may need it; only one is loaded.
  const chunkBody = (buffer) => buffer.toString('utf8').replace(/^\(self\.\w+=self\.\w+\|\|\[\]\)\.push\(\[\["?[\w-]+"?\]/, '');

  const shellDist = join(root, 'shell', 'dist');
  const first = new Map();
  const seen = new Set();
  for (const file of readdirSync(shellDist).filter((name) => name.endsWith('.js') && !name.startsWith('silent-check-sso'))) {
    const buffer = read(join(shellDist, file));
    const body = chunkBody(buffer);
    if (seen.has(body)) continue;
    seen.add(body);
    first.set(`shell/${file}`, gzipBytes(buffer));
  }
  const remoteFiles = (name) => {
    const dist = join(root, REMOTES[name].dir, 'dist');
    const manifest = JSON.parse(readFileSync(join(dist, REMOTES[name].manifestPath), 'utf8'));
    const expose = manifest.exposes.find((item) => item.path === './App' || item.name === 'App');
    const files = [manifest.metaData.remoteEntry.name, ...(expose?.assets.js.sync ?? [])];
    const css = expose?.assets.css.sync ?? [];
    const sizes = (list) => new Map(list.map((file) => [`${REMOTES[name].dir}/${file}`, gzipBytes(read(join(dist, file)))]));
    return { js: sizes(files), css: sizes(css) };
  };
  const audiences = remoteFiles('audiences');
  const campaigns = remoteFiles('campaigns');
  for (const [file, size] of audiences.js) first.set(file, size);
  const shellCss = readdirSync(shellDist).filter((name) => name.endsWith('.css') && !name.startsWith('silent-check-sso'));
  const firstCss = new Map([...shellCss.map((file) => [`shell/${file}`, gzipBytes(read(join(shellDist, file)))]), ...audiences.css]);
  return {
    method: 'static: shell dist (identical chunks once) + remote entries and exposed chunks from mf-manifest.json',
    first,
    move: campaigns.js,
    firstCss,
    moveCss: campaigns.css,
  };
}

requireBuilt();
const chromium = args.has('--static') ? null : await loadPlaywright();
if (!chromium && !args.has('--static')) console.log(`Chromium (${CHROMIUM}) or playwright is not available: static analysis instead.`);
const result = !chromium ? measureStatic() : args.has('--stack') ? await measureStack(chromium) : await measureLocal(chromium);

const firstViewKbGzip = kb(sum(result.first));
const moveKbGzip = kb(sum(result.move));
console.log(`Bundle size (JavaScript, gzip -9 per file) — ${result.method}`);
listFiles(
  `first signed-in view of /audiences: ${firstViewKbGzip} KB in ${result.first.size} files (budget ${BUDGET.firstViewKbGzip} KB)`,
  result.first,
);
listFiles(`then a move to /campaigns: ${moveKbGzip} KB more in ${result.move.size} files (budget ${BUDGET.moveKbGzip} KB)`, result.move);
// Only the local method knows a campaign to report on (the stack's seed has none sent).
const reportMoveKbGzip = result.reportMove ? kb(sum(result.reportMove)) : null;
if (result.reportMove) {
  listFiles(
    `then a move to a campaign's report (Overview): ${reportMoveKbGzip} KB more in ${result.reportMove.size} files (budget ${BUDGET.reportMoveKbGzip} KB)`,
    result.reportMove,
  );
}
const firstViewCssKbGzip = kb(sum(result.firstCss));
const moveCssKbGzip = kb(sum(result.moveCss));
console.log('Style sheets (CSS, not counted above: Griffel styles extracted at build time)');
listFiles(`first signed-in view of /audiences: ${firstViewCssKbGzip} KB in ${result.firstCss.size} files`, result.firstCss);
listFiles(`then a move to /campaigns: ${moveCssKbGzip} KB more in ${result.moveCss.size} files`, result.moveCss);
const reportMoveCssKbGzip = result.reportMoveCss ? kb(sum(result.reportMoveCss)) : null;
if (result.reportMoveCss) {
  listFiles(
    `then a move to a campaign's report: ${reportMoveCssKbGzip} KB more in ${result.reportMoveCss.size} files`,
    result.reportMoveCss,
  );
}
console.log(
  `first view ${firstViewKbGzip <= BUDGET.firstViewKbGzip ? 'within' : 'OVER'} budget, move ${moveKbGzip <= BUDGET.moveKbGzip ? 'within' : 'OVER'} budget` +
    (reportMoveKbGzip === null ? '' : `, report move ${reportMoveKbGzip <= BUDGET.reportMoveKbGzip ? 'within' : 'OVER'} budget`),
);
console.log(
  JSON.stringify({
    bench: 'bundle',
    firstViewKbGzip,
    moveKbGzip,
    reportMoveKbGzip,
    firstViewCssKbGzip,
    moveCssKbGzip,
    reportMoveCssKbGzip,
  }),
);
