/**
 * `pnpm start`: the whole product in one command (DESIGN.md section 8).
 *
 * Every external piece has an embedded default that gives way to the real service when its
 * variable is set: PostgreSQL (DATABASE_URL), RabbitMQ (AMQP_URL), the identity provider
 * (OIDC_ISSUER), SES (SES_ENDPOINT or AWS credentials). The API and the worker run in this one
 * process (the in-process queue works only inside one process); the shell and its runtime config
 * share one origin with the API; each remote has its own static server, as if deployed apart.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REMOTES } from '@mailroom/mf-contract';
import { serveStatic } from '@mailroom/rspack-config/serve';
import { startEmbeddedPostgres } from '../embedded/postgres.js';
import { startEmbeddedSes } from '../embedded/ses.js';
import { startEmbeddedOidc } from '../embedded/oidc.js';
import { SEEDED_ACCOUNTS } from '../embedded/oidc-accounts.js';
import { loadConfig } from '../config.js';
import { createDeps, closeDeps } from '../deps.js';
import { migrate } from '../db/migrate.js';
import { createApp } from '../http/app.js';
import { startWorkers } from '../workers/index.js';
import { createWebApp, remotesManifest } from './web.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const env = process.env;
const stops: (() => Promise<void>)[] = [];
const startedAt = Date.now();

async function main(): Promise<void> {
  const host = env.STACK_HOST ?? 'localhost';
  const webPort = Number(env.PORT ?? 8080);
  const publicUrl = env.PUBLIC_URL ?? `http://${host}:${webPort}`;
  env.PUBLIC_URL = publicUrl;
  env.NODE_ENV ??= 'development';

  if (!env.DATABASE_URL) {
    const postgres = await startEmbeddedPostgres({
      dataDir: join(root, '.data/postgres'),
      port: Number(env.EMBEDDED_POSTGRES_PORT ?? 5433),
      database: 'mailroom',
      log: (line) => console.error(`[postgres] ${line}`),
    });
    env.DATABASE_URL = postgres.url;
    stops.push(postgres.stop);
    console.log(`  PostgreSQL   embedded (${postgres.url.replace(/:[^:@/]+@/, ':***@')})`);
  }

  if (!env.SES_ENDPOINT && !env.AWS_ACCESS_KEY_ID) {
    const ses = await startEmbeddedSes({ port: Number(env.EMBEDDED_SES_PORT ?? 8005) });
    env.SES_ENDPOINT = ses.endpoint;
    stops.push(ses.stop);
    console.log(`  SES          embedded, inbox at ${ses.endpoint}/`);
  }

  if (!env.OIDC_ISSUER) {
    const oidcPort = Number(env.EMBEDDED_OIDC_PORT ?? 4000);
    const oidc = await startEmbeddedOidc({
      port: oidcPort,
      issuer: `http://${host}:${oidcPort}`,
      redirectUris: [`${publicUrl}/login/callback`, `${publicUrl}/silent-check-sso.html`],
      postLogoutRedirectUris: [`${publicUrl}/login`, publicUrl],
      // Kept so that tokens already issued still verify after a restart.
      jwksFile: join(root, '.data/oidc-jwks.json'),
    });
    env.OIDC_ISSUER = oidc.issuer;
    stops.push(oidc.close);
    console.log(`  Sign-in      embedded provider at ${oidc.issuer}`);
    for (const account of SEEDED_ACCOUNTS) console.log(`               ${account.email} / ${account.password}`);
  }

  if (!env.AMQP_URL) console.log('  Queue        in-process (set AMQP_URL for RabbitMQ)');

  const config = loadConfig(env);
  await migrate(config);
  const deps = await createDeps(config);
  stops.unshift(() => closeDeps(deps));
  const workers = await startWorkers(deps);
  stops.unshift(() => workers.close());

  // Remotes listen on consecutive ports from REMOTES_PORT_BASE + 1 (3101..3104 by default).
  const base = Number(env.REMOTES_PORT_BASE ?? 3100);
  const remotePorts = { audiences: base + 1, templates: base + 2, campaigns: base + 3, reports: base + 4 };
  for (const name of Object.keys(REMOTES) as (keyof typeof REMOTES)[]) {
    if (env[`REMOTE_${name.toUpperCase()}_URL`]) continue;
    const server = serveStatic(join(root, `mfe-${name}`, 'dist'), remotePorts[name]);
    stops.push(() => new Promise((done) => server.close(() => done())));
  }

  const web = createWebApp({
    shellDist: join(root, 'shell/dist'),
    shellConfig: {
      apiBaseUrl: '',
      oidc: { authority: config.oidc.issuer, clientId: config.oidc.clientId, scope: 'openid profile email' },
      orgDomain: config.orgEmailDomain,
      orgName: config.orgName,
      stockPhoto: env.STOCK_PHOTO_URL && env.STOCK_PHOTO_KEY ? { url: env.STOCK_PHOTO_URL, key: env.STOCK_PHOTO_KEY } : null,
    },
    remotes: remotesManifest(env, remotePorts, host),
    api: createApp(deps),
  });
  const server = web.listen(webPort);
  await new Promise<void>((done, fail) => {
    server.once('listening', () => done());
    server.once('error', fail);
  });
  stops.unshift(() => new Promise((done) => server.close(() => done())));

  console.log(`\nMailroom is running at ${publicUrl} (ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s)`);
}

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping Mailroom...`);
  for (const step of stops) {
    await step().catch((error: unknown) => console.error(error));
  }
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));

main().catch(async (error: unknown) => {
  console.error('Mailroom could not start:', error instanceof Error ? error.message : error);
  for (const step of stops) await step().catch(() => {});
  process.exit(1);
});
