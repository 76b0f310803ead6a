import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RequestListener } from 'node:http';
import type { Logger } from '../logger.js';

/** Connections the kernel holds for the server until it accepts them (node:cluster passes it to the primary's socket). */
export const LISTEN_BACKLOG = 4096;

export interface HttpServerHandle {
  server: Server;
  port: number;
  url: string;
  /** Stops accepting connections and resolves once the requests in flight have been answered. */
  stop(): Promise<void>;
}

export async function startHttpServer(
  app: RequestListener,
  options: { port: number; host?: string; logger: Logger; drainMs?: number },
): Promise<HttpServerHandle> {
  const { logger, drainMs = 25_000 } = options;
  const server = createServer(app);
  // Behind a proxy or load balancer: keep idle keep-alive sockets longer than it does.
  server.keepAliveTimeout = 65_000;
  // Node's default backlog of 511 is short for a burst (people following a newsletter's sign-up link, the opens
  // of a campaign just sent): connections beyond it wait for the client's SYN retry, a whole second, then three.
  // The kernel caps it at net.core.somaxconn.
  server.listen({ port: options.port, host: options.host, backlog: LISTEN_BACKLOG });
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const url = `http://${options.host && options.host !== '0.0.0.0' && options.host !== '::' ? options.host : 'localhost'}:${port}`;
  logger.info({ port, url }, 'HTTP server listening');

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= new Promise<void>((resolve, reject) => {
      // close() stops accepting and waits for the requests in flight; idle keep-alive sockets
      // would hold it open for keepAliveTimeout, so they are closed now (and as they go idle).
      server.close((err) => (err ? reject(err) : resolve()));
      server.closeIdleConnections();
      const idle = setInterval(() => server.closeIdleConnections(), 200);
      const force = setTimeout(() => {
        logger.warn({ drainMs }, 'requests still running after the drain period: closing their connections');
        server.closeAllConnections();
      }, drainMs);
      idle.unref();
      force.unref();
      server.once('close', () => {
        clearInterval(idle);
        clearTimeout(force);
      });
    }));

  return { server, port, url, stop };
}
