/**
 * The SES v2 client. Locally SES_ENDPOINT points at a SES-compatible server (aws-ses-v2-local);
 * nothing else in the code knows the difference.
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

export function createSesClient(config: Pick<Config, 'aws'>): SESv2Client {
  const { region, sesEndpoint } = config.aws;
  return new SESv2Client({
    region,
    ...(sesEndpoint ? { endpoint: sesEndpoint } : {}),
    // One call, never a retry by the SDK: a call that timed out may have sent the mail, and
    // sending is at most once per job (DESIGN.md section 3). Our own code decides what to retry.
    maxAttempts: 1,
    // The local server wants a signed request but checks no key; real SES uses the default chain.
    ...(isLocalEndpoint(sesEndpoint) ? { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  });
}
