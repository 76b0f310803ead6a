/**
 * Embedded default for Amazon SES: the aws-ses-v2-local server (SES v2 API plus an inbox viewer
 * at its root URL). The product talks to it through the real SDK with SES_ENDPOINT, so nothing in
 * the sending code knows the difference.
 *
 * aws-ses-v2-local answers GetAccount from a fixed AWS_SES_ACCOUNT variable. So that the quota bar
 * shows real figures, the variable is rewritten just before each GetAccount request with the number
 * of messages the local server really took in the last 24 hours.
 *
 * aws-ses-v2-local takes any recipient. SES does not: it takes 7-bit ASCII addresses only (no
 * SMTPUTF8; a Unicode domain must come as Punycode, a Unicode local part cannot come at all) and
 * answers 400 BadRequestException to anything else. The embedded server refuses those the same
 * way, so a member's contact such as `zoë@example.org` fails locally as it would in production.
 *
 * Its inbox viewer writes each mail's html into a frame of its own page as soon as the mail arrives,
 * so a browser showing the inbox loaded every mail's open pixel (and any other remote image): anyone
 * trying the product locally recorded opens, counted as people's, for mails nobody read. The viewer
 * is served with a Content-Security-Policy that lets it work (its inline script and styles, its calls
 * to this server) and loads nothing from anywhere else; the mails' frames inherit it, so they show
 * with remote images blocked, as a mail client shows them by default. Links still work: a click is a
 * person's act, as it would be in a mail client.
 */
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
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
  /**
   * Recipient domains whose addresses are refused as SES's sandbox refuses an unverified address
   * (400 MessageRejected): a mail SES refuses although its address is one it can take, which the
   * import cannot foresee (the e2e suite's failed mail).
   */
  unverifiedDomains?: readonly string[];
}

/** What SES answers a recipient that is not 7-bit ASCII. */
export const ILLEGAL_ADDRESS = 'Illegal address';
/** What SES's sandbox answers a recipient that is not verified. */
export const NOT_VERIFIED = 'Email address is not verified.';
const NOT_SEVEN_BIT = /[^\p{ASCII}]/u;
const SEND_EMAIL = '/v2/email/outbound-emails';

/**
 * The inbox viewer's policy: its own inline script, handlers and styles, its calls to this server, and
 * images only from data: and blob: addresses. Nothing else (tracking pixels, remote images, fonts,
 * stylesheets, pings, prefetches) is requested, from the page or from the mails' frames.
 */
export const INBOX_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'unsafe-inline'",
  "style-src 'unsafe-inline'",
  'img-src data: blob:',
  "connect-src 'self'",
  "frame-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

interface Destination {
  ToAddresses?: unknown;
  CcAddresses?: unknown;
  BccAddresses?: unknown;
}

function recipientsOf(body: unknown): string[] {
  const destination = (body as { Destination?: Destination } | null)?.Destination;
  return [destination?.ToAddresses, destination?.CcAddresses, destination?.BccAddresses].flatMap((list) =>
    Array.isArray(list) ? list.filter((address): address is string => typeof address === 'string') : [],
  );
}

/**
 * Puts SES's address rule in front of the local server's SendEmail: the body is read here, and a
 * request it lets through goes on with the body already parsed (`req.body`; the server's JSON parser
 * leaves a request whose body was read alone).
 */
function refuseWhatSesRefuses(server: Server, unverifiedDomains: readonly string[]): void {
  const unverified = new Set(unverifiedDomains.map((domain) => domain.toLowerCase()));
  const handlers = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  const next = (request: IncomingMessage, response: ServerResponse) => {
    for (const handler of handlers) handler(request, response);
  };
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (request.method !== 'POST' || request.url?.split('?')[0] !== SEND_EMAIL) return next(request, response);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = undefined;
      }
      if (recipientsOf(body).some((address) => NOT_SEVEN_BIT.test(address))) {
        response.writeHead(400, { 'Content-Type': 'application/json', 'x-amzn-ErrorType': 'BadRequestException' });
        response.end(JSON.stringify({ message: ILLEGAL_ADDRESS }));
        return;
      }
      if (recipientsOf(body).some((address) => unverified.has(address.slice(address.lastIndexOf('@') + 1).toLowerCase()))) {
        response.writeHead(400, { 'Content-Type': 'application/json', 'x-amzn-ErrorType': 'MessageRejected' });
        response.end(JSON.stringify({ message: NOT_VERIFIED }));
        return;
      }
      (request as IncomingMessage & { body?: unknown }).body = body;
      next(request, response);
    });
  });
}

function sentLast24Hours(): number {
  // aws-ses-v2-local stamps messages in seconds.
  const since = Date.now() / 1000 - 24 * 60 * 60;
  return getStoreReadonly().emails.filter((email) => email.at >= since).length;
}

export async function startEmbeddedSes(options: EmbeddedSesOptions): Promise<EmbeddedSesHandle> {
  const host = options.host ?? '127.0.0.1';
  const server: Server = await startSesServer({ host, port: options.port });
  refuseWhatSesRefuses(server, options.unverifiedDomains ?? []);
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
  server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
    // On every answer, not only the viewer's path: the SDK ignores it, and no page of this server escapes it.
    response.setHeader('Content-Security-Policy', INBOX_CONTENT_SECURITY_POLICY);
    if (request.method === 'GET' && request.url?.startsWith('/v2/email/account')) {
      process.env.AWS_SES_ACCOUNT = JSON.stringify(account(sentLast24Hours()));
    }
  });
  return {
    endpoint: `http://${host === '0.0.0.0' ? 'localhost' : host}:${options.port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
