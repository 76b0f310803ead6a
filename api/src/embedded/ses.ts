/**
 * Embedded default for Amazon SES: the aws-ses-v2-local server (SES v2 API plus an inbox viewer
 * at its root URL). The product talks to it through the real SDK with SES_ENDPOINT, so nothing in
 * the sending code knows the difference.
 *
 * aws-ses-v2-local answers GetAccount from a fixed AWS_SES_ACCOUNT variable. So that the quota bar
 * shows real figures, the variable is rewritten just before each GetAccount request with the number
 * of messages the local server really took in the last 24 hours.
 */
import type { IncomingMessage, Server } from 'node:http';
import { createRequire } from 'node:module';
import sesLocal from 'aws-ses-v2-local';

// A CommonJS module with an ES default export: under Node's ESM loader the function sits on `.default`.
const startSesServer = ((sesLocal as unknown as { default?: unknown }).default ?? sesLocal) as (config: {
  host: string;
  port: number;
}) => Promise<Server>;
const require = createRequire(import.meta.url);
const { getStoreReadonly } = require('aws-ses-v2-local/dist/store.js') as {
  getStoreReadonly: () => { emails: { at: number }[] };
};

export interface EmbeddedSesHandle {
  endpoint: string;
  stop(): Promise<void>;
}

export interface EmbeddedSesOptions {
  host?: string;
  port: number;
  /** The account's sending limits, as SES would report them. */
  max24HourSend?: number;
  maxSendRate?: number;
}

function sentLast24Hours(): number {
  // aws-ses-v2-local stamps messages in seconds.
  const since = Date.now() / 1000 - 24 * 60 * 60;
  return getStoreReadonly().emails.filter((email) => email.at >= since).length;
}

export async function startEmbeddedSes(options: EmbeddedSesOptions): Promise<EmbeddedSesHandle> {
  const host = options.host ?? '127.0.0.1';
  const server: Server = await startSesServer({ host, port: options.port });
  const account = (sent: number) => ({
    DedicatedIpAutoWarmupEnabled: false,
    Details: {
      AdditionalContactEmailAddresses: [],
      ContactLanguage: 'EN',
      MailType: 'MARKETING',
      ReviewDetails: { CaseId: 'local', Status: 'GRANTED' },
      UseCaseDescription: 'Mailroom local development',
      WebsiteURL: 'http://localhost',
    },
    EnforcementStatus: 'HEALTHY',
    ProductionAccessEnabled: true,
    SendingEnabled: true,
    SendQuota: {
      Max24HourSend: options.max24HourSend ?? 50000,
      MaxSendRate: options.maxSendRate ?? 14,
      SentLast24Hours: sent,
    },
    SuppressionAttributes: { SuppressedReasons: ['BOUNCE', 'COMPLAINT'] },
  });
  server.prependListener('request', (request: IncomingMessage) => {
    if (request.method === 'GET' && request.url?.startsWith('/v2/email/account')) {
      process.env.AWS_SES_ACCOUNT = JSON.stringify(account(sentLast24Hours()));
    }
  });
  return {
    endpoint: `http://${host === '0.0.0.0' ? 'localhost' : host}:${options.port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
