/**
 * The SES v2 client. Locally SES_ENDPOINT points at a SES-compatible server (aws-ses-v2-local);
 * nothing else in the code knows the difference. SendEmail goes out through ses-sender.ts with
 * this client's credentials, region and endpoint.
 */
import { SESv2Client } from '@aws-sdk/client-sesv2';
import type { Config } from '../config.js';

export { SESv2Client };

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export function isLocalEndpoint(endpoint: string | undefined): boolean {
  if (!endpoint) return false;
  try {
    return LOCAL_HOSTS.has(new URL(endpoint).hostname);
  } catch {
    return false;
  }
}

/**
 * How long a call to SES may take: a connection that never opens sent nothing; a call that hangs is
 * given up (its job becomes UNKNOWN) well before the sweep would have to guess.
 */
export const SES_TIMEOUTS = { connectMs: 5_000, answerMs: 30_000 } as const;

export function createSesClient(config: Pick<Config, 'aws'>): SESv2Client {
  const { region, sesEndpoint } = config.aws;
  return new SESv2Client({
    region,
    ...(sesEndpoint ? { endpoint: sesEndpoint } : {}),
    // One call, never a retry by the SDK: a call that timed out may have sent the mail, and
    // sending is at most once per job (docs/architecture.md, Data; Sending, at most once per job). Our own code decides what to retry.
    maxAttempts: 1,
    requestHandler: { connectionTimeout: SES_TIMEOUTS.connectMs, requestTimeout: SES_TIMEOUTS.answerMs, throwOnRequestTimeout: true },
    // The local server wants a signed request but checks no key; real SES uses the default chain.
    ...(isLocalEndpoint(sesEndpoint) ? { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  });
}
