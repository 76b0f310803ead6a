/**
 * `pnpm start`: the whole product in one command (docs/architecture.md, Running anywhere).
 *
 * Every external piece has an embedded default that gives way to the real service when its
 * variable is set: PostgreSQL (DATABASE_URL), RabbitMQ (AMQP_URL), the identity provider
 * (OIDC_ISSUER), SES (SES_ENDPOINT or AWS credentials). The API and the worker run in this one
 * process (the in-process queue works only inside one process); the shell and its runtime config
 * share one origin with the API; each remote has its own static server, as if deployed apart.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REMOTES, REMOTE_NAMES, remotePort, remoteUrlVariable, type RemoteName } from '@mailroom/mf-contract/remotes';
import { serveStatic } from '@mailroom/static-server';
import { startEmbeddedPostgres } from '../embedded/postgres.js';
import { startEmbeddedSes } from '../embedded/ses.js';
import { embeddedSnsVerifierFromFile } from '../embedded/sns.js';
import { isLocalEndpoint } from '../../src/mail/ses.js';
import { startEmbeddedOidc } from '../embedded/oidc.js';
import { EMBEDDED_ROLE_MAP, EMBEDDED_ROLES_CLAIM, SEEDED_ACCOUNTS } from '../embedded/oidc-accounts.js';
import { loadConfig } from '../../src/config.js';
import { createDeps, closeDeps } from '../../src/deps.js';
import { migrate } from '../../src/db/migrate.js';
import { createApp } from '../../src/http/app.js';
import { createLogger } from '../../src/logger.js';
import { onShutdownSignal } from '../../src/lifecycle.js';
import { startWorkers } from '../../src/workers/index.js';
import { createWebApp, remotesManifest, shellConfigOf } from '../../src/web/web.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const env = process.env;
const startedAt = Date.now();
/** Stop steps; the one added first runs first (the web server before what it serves). */
const stops: (() => Promise<void>)[] = [];

async function main(): Promise<void> {
  // Read once for the stack's own settings; read again below, once the embedded pieces have said
  // where they listen, for the configuration the product runs with.
  const { stack, port: webPort, ...initial } = loadConfig({ PORT: '8080', ...env });
  const publicUrl = env.PUBLIC_URL ?? `http://${stack.host}:${webPort}`;
  env.PUBLIC_URL = publicUrl;
  env.PORT = String(webPort);
  env.NODE_ENV ??= 'development';

  if (stack.embedded.postgres) {
    const postgres = await startEmbeddedPostgres({
      dataDir: join(root, '.data/postgres'),
      port: stack.ports.postgres,
      database: 'mailroom',
      log: (line) => console.error(`[postgres] ${line}`),
    });
    env.DATABASE_URL = postgres.url;
    stops.push(postgres.stop);
    console.log(`  PostgreSQL   embedded (${postgres.url.replace(/:[^:@/]+@/, ':***@')})`);
  }

  if (stack.embedded.ses) {
    const ses = await startEmbeddedSes({ port: stack.ports.ses });
    env.SES_ENDPOINT = ses.endpoint;
    stops.push(ses.stop);
    console.log(`  SES          embedded, inbox at ${ses.endpoint}/`);
  }

  // SES events signed with a certificate of the developer's (or the e2e suite's) instead of SNS's.
  // The local SES may run embedded or apart (SES_ENDPOINT on this machine, as the e2e suite does); never with a real SES.
  const localSes = stack.embedded.ses || (isLocalEndpoint(initial.aws.sesEndpoint) && !env.AWS_ACCESS_KEY_ID);
  const snsVerifier = stack.snsCertificateFile ? embeddedSnsVerifierFromFile(stack.snsCertificateFile, localSes) : undefined;
  if (stack.snsCertificateFile) console.log(`  SES events   verified against ${stack.snsCertificateFile} (EMBEDDED_SNS_CERTIFICATE_FILE)`);

  if (stack.embedded.oidc) {
    const oidc = await startEmbeddedOidc({
      port: stack.ports.oidc,
      issuer: `http://${stack.host}:${stack.ports.oidc}`,
      redirectUris: [`${publicUrl}/login/callback`, `${publicUrl}/silent-check-sso.html`],
      postLogoutRedirectUris: [`${publicUrl}/login`, publicUrl],
      // Kept so that tokens already issued still verify after a restart.
      jwksFile: join(root, '.data/oidc-jwks.json'),
    });
    env.OIDC_ISSUER = oidc.issuer;
    // The seeded accounts' groups are their roles (issue 27), unless the developer maps them otherwise.
    env.OIDC_ROLES_CLAIM ??= EMBEDDED_ROLES_CLAIM;
    env.ROLE_MAP ??= EMBEDDED_ROLE_MAP;
    stops.push(oidc.close);
    console.log(`  Sign-in      embedded provider at ${oidc.issuer}`);
    for (const account of SEEDED_ACCOUNTS) console.log(`               ${account.email} / ${account.password}`);
  }

  if (!initial.amqpUrl) console.log('  Queue        in-process (set AMQP_URL for RabbitMQ)');

  const config = loadConfig(env);
  await migrate(config);
  const deps = await createDeps(config, { snsVerifier });
  stops.unshift(() => closeDeps(deps));
  const workers = await startWorkers(deps);
  stops.unshift(() => workers.close());

  // Each remote is served on its development port (3101...), all moved at once by REMOTES_PORT_BASE.
  const remotePorts = Object.fromEntries(REMOTE_NAMES.map((name) => [name, remotePort(name, stack.ports.remotesBase)])) as Record<
    RemoteName,
    number
  >;
  for (const name of REMOTE_NAMES) {
    if (env[remoteUrlVariable(name)]) continue;
    const server = serveStatic(join(root, REMOTES[name].dir, 'dist'), remotePorts[name]);
    stops.push(() => new Promise((done) => server.close(() => done())));
  }

  const web = createWebApp({
    shellDist: join(root, 'shell/dist'),
    shellConfig: shellConfigOf(config),
    remotes: remotesManifest(env, remotePorts, stack.host),
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

const stopAll = async () => {
  for (const step of stops) await step().catch((error: unknown) => console.error(error));
};

// The entry points' one shutdown path: drain in order, within the grace period.
onShutdownSignal(createLogger({ logLevel: 'info' }, { process: 'stack' }), stopAll);

main().catch(async (error: unknown) => {
  console.error('Mailroom could not start:', error instanceof Error ? error.message : error);
  await stopAll();
  process.exit(1);
});
