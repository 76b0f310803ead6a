/**
 * A process's life, for the entry points: its start (runProcess: configuration, schema, the
 * dependencies, then what the process serves) and its graceful shutdown (onShutdownSignal: on
 * SIGTERM or SIGINT run `stop` once, stop accepting, finish in-flight work, close the queue and the
 * database, then exit; a second signal, or a stop that hangs past the grace period, exits at once).
 */
import cluster from 'node:cluster';
import { loadConfig, type Config } from './config.js';
import { migrate, waitForSchema } from './db/migrate.js';
import { closeDeps, createDeps, type AppDeps } from './deps.js';
import { createLogger, type Logger } from './logger.js';
import { isLocalEndpoint } from './mail/ses.js';
import type { SnsVerifier } from './services/ses-events/sns-message.js';
import { startWorkers } from './workers/index.js';

export function onShutdownSignal(logger: Logger, stop: () => Promise<void>, graceMs = 30_000): void {
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error({ graceMs }, 'shutdown took too long: exiting');
      process.exit(1);
    }, graceMs);
    force.unref();
    stop().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', shutdown);
  // One of several HTTP processes (http/cluster.ts): the primary decides when to stop and sends
  // SIGTERM. A Ctrl-C reaches the whole process group; taken here too, it would be a second signal.
  if (cluster.isWorker) process.on('SIGINT', () => undefined);
  else process.on('SIGINT', shutdown);
}

/** Stop steps of a process; the one added last runs first (stop accepting before closing what serves). */
export interface Stops {
  add(step: () => Promise<void>): void;
}

export interface ProcessOptions {
  /**
   * Whether the process runs the queue's consumers (workers/index.ts): 'always' (the worker, which
   * needs AMQP_URL), or 'without-broker' (the HTTP process: an in-process queue cannot be shared, so
   * its consumers live where its messages are published). Started before `start`, stopped after what
   * `start` adds. Default: none.
   */
  consumers?: 'always' | 'without-broker';
  /** How long a publish waits for a broker that is away (DepsOverrides.publishWaitMs). */
  publishWaitMs?: number;
}

/**
 * The shared start of the http and worker entry points: configuration (a bad value stops here, printed
 * plainly), migrations, the dependencies, the consumers if the process runs them, then `start`.
 * Signals are handled from the first moment, so a stop during start-up is graceful too.
 */
export function runProcess(
  name: string,
  start: (context: { deps: AppDeps; stops: Stops }) => Promise<void>,
  options: ProcessOptions = {},
): void {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
  const logger = createLogger(config, { process: name });
  const steps: (() => Promise<void>)[] = [];
  const stops: Stops = { add: (step) => void steps.unshift(step) };
  const stopAll = async () => {
    for (const step of steps) await step();
  };
  onShutdownSignal(logger, stopAll);
  (async () => {
    // Production's schema is the migration step's: a process waits for it rather than racing it or
    // starting on an older schema. Development and the tests migrate at start.
    if (config.nodeEnv === 'production') {
      await waitForSchema({ databaseUrl: config.databaseUrl, logger, timeoutMs: config.schemaWaitMs });
    } else {
      await migrate({ databaseUrl: config.databaseUrl, logger });
    }
    // SES events signed with a local certificate instead of SNS's, as the one-command stack takes them
    // (development and tests with several processes): only next to a local SES, never in production.
    const certificateFile = config.stack.snsCertificateFile;
    const localSes = isLocalEndpoint(config.aws.sesEndpoint) && !process.env.AWS_ACCESS_KEY_ID;
    const snsVerifier = certificateFile ? await localSnsVerifier(certificateFile, localSes) : undefined;
    if (options.consumers === 'always' && !config.amqpUrl) {
      throw new Error(`The ${name} needs AMQP_URL; without a broker the HTTP process runs the consumers itself`);
    }
    const deps = await createDeps(config, {
      logger,
      snsVerifier,
      ...(options.publishWaitMs === undefined ? {} : { publishWaitMs: options.publishWaitMs }),
    });
    logger.info({ spool: deps.spool.description }, 'import spool');
    warnWithoutDeliveryEvents(config, logger);
    stops.add(() => closeDeps(deps));
    if (options.consumers === 'always' || (options.consumers === 'without-broker' && !config.amqpUrl)) {
      if (!config.amqpUrl) logger.info('no AMQP_URL: in-process queue, consumers run in this process');
      const workers = await startWorkers(deps);
      stops.add(() => workers.close());
    }
    await start({ deps, stops });
  })().catch(async (error: unknown) => {
    logger.error({ err: error }, 'start failed');
    await stopAll().catch(() => undefined);
    process.exit(1);
  });
}

/**
 * The verifier of EMBEDDED_SNS_CERTIFICATE_FILE, from the development tools (api/dev), which the
 * production tree does not hold: loaded only when the variable is set, which production refuses.
 * The address is built at run time so that the build of src/ neither follows nor bundles it.
 */
async function localSnsVerifier(certificateFile: string, localSes: boolean): Promise<SnsVerifier> {
  const address = new URL('../dev/embedded/sns.js', import.meta.url).href;
  const tools = (await import(address).catch((error: unknown) => {
    if ((error as { code?: unknown }).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new Error('EMBEDDED_SNS_CERTIFICATE_FILE needs the development tools (api/dev): start the process from the repository');
  })) as { embeddedSnsVerifierFromFile(file: string, sesLocal: boolean): SnsVerifier };
  return tools.embeddedSnsVerifierFromFile(certificateFile, localSes);
}

/**
 * Without the configuration set (SES publishes no event) or the SNS topics (the webhook takes none),
 * every mail stays 'Sent (waiting Ack)' for ever: said once at start, so that an operator who left
 * them out learns it from the log rather than from the reports.
 */
export function warnWithoutDeliveryEvents(config: Config, logger: Logger): void {
  const missing = [
    ...(config.aws.sesConfigurationSet ? [] : ['SES_CONFIGURATION_SET']),
    ...(config.sesEvents.topicArns.length > 0 ? [] : ['SNS_TOPIC_ARNS']),
  ];
  if (missing.length === 0) return;
  logger.warn(
    { missing },
    `delivery events are not configured (${missing.join(', ')} unset): no delivery, bounce or complaint is recorded, and every mail stays 'Sent (waiting Ack)'`,
  );
}
