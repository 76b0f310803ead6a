/**
 * A TCP proxy between the app and PostgreSQL that the test controls, to lose the database on cue
 * without touching the shared server:
 *
 *   const proxy = await startTcpProxy({ port: 5432 });
 *   const url = proxy.url(db.url);                      // the database URL, through the proxy
 *   const cut = proxy.cutWhen({ marker: 'COPY contacts', afterBytes: 1_000_000, direction: 'up' });
 *   ...; await cut;                                     // every connection was reset mid-COPY
 *   proxy.refuse();  proxy.pass();                      // an outage (new connections reset), and back
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface CutRule {
  /** Text the client sends (a statement) that arms the cut on that connection. */
  marker: string;
  /** Bytes to let through in `direction` on that connection after the marker before cutting. Default 0. */
  afterBytes?: number;
  /** 'up': client to PostgreSQL (a COPY FROM); 'down': PostgreSQL to client (a COPY TO). Default 'up'. */
  direction?: 'up' | 'down';
}

export interface TcpProxy {
  port: number;
  /** `databaseUrl` with its host and port replaced by the proxy's. */
  url(databaseUrl: string): string;
  /** Resolves once a connection met the rule and every open connection was reset. One shot. */
  cutWhen(rule: CutRule): Promise<void>;
  /** Resets every open connection now. */
  cutAll(): void;
  /** An outage: every open connection is reset, and every new one as soon as it is accepted. */
  refuse(): void;
  /** Traffic passes again. */
  pass(): void;
  /** Connections reset by the proxy so far. */
  readonly resets: number;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  server: Socket;
}

export async function startTcpProxy(target: { host?: string; port: number }): Promise<TcpProxy> {
  const host = target.host ?? '127.0.0.1';
  const pairs = new Set<Pair>();
  let refusing = false;
  let resets = 0;
  let rule: (CutRule & { done: () => void }) | undefined;

  const reset = (pair: Pair) => {
    if (!pairs.delete(pair)) return;
    resets += 1;
    // RST rather than FIN: what a crashed server, a failover or a broken network looks like.
    pair.client.resetAndDestroy();
    pair.server.resetAndDestroy();
  };
  const cutAll = () => {
    for (const pair of [...pairs]) reset(pair);
  };

  const server: Server = createServer((client) => {
    client.on('error', () => undefined);
    if (refusing) {
      resets += 1;
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(target.port, host);
    upstream.on('error', () => undefined);
    const pair: Pair = { client, server: upstream };
    pairs.add(pair);
    let armed = false;
    let counted = 0;
    const watch = (direction: 'up' | 'down', chunk: Buffer) => {
      if (!rule) return;
      if (!armed && direction === 'up' && chunk.includes(rule.marker)) armed = true;
      if (!armed || direction !== (rule.direction ?? 'up')) return;
      counted += chunk.length;
      if (counted >= (rule.afterBytes ?? 0)) {
        const { done } = rule;
        rule = undefined;
        cutAll();
        done();
      }
    };
    client.on('data', (chunk: Buffer) => {
      watch('up', chunk);
      if (pairs.has(pair) && !upstream.write(chunk)) client.pause();
    });
    upstream.on('data', (chunk: Buffer) => {
      watch('down', chunk);
      if (pairs.has(pair) && !client.write(chunk)) upstream.pause();
    });
    upstream.on('drain', () => client.resume());
    client.on('drain', () => upstream.resume());
    const end = () => {
      if (!pairs.delete(pair)) return;
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end);
    upstream.on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    port,
    url(databaseUrl) {
      const url = new URL(databaseUrl);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    cutWhen(next) {
      return new Promise<void>((resolve) => {
        rule = { ...next, done: resolve };
      });
    },
    cutAll,
    refuse() {
      refusing = true;
      cutAll();
    },
    pass() {
      refusing = false;
    },
    get resets() {
      return resets;
    },
    async close() {
      refusing = true;
      cutAll();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
