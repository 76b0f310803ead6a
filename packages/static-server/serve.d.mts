import type { IncomingMessage, Server, ServerResponse } from 'node:http';

export interface StaticOptions {
  /** Interface to listen on; every interface when omitted. */
  host?: string;
  /** Extra JSON documents by URL path (for example '/config.json'), served with no-cache. */
  json?: Record<string, unknown>;
}

export function createStaticHandler(
  dir: string,
  options?: StaticOptions,
): (req: IncomingMessage, res: ServerResponse, next?: () => void) => Promise<void>;

export function serveStatic(dir: string, port: number, options?: StaticOptions): Server;
