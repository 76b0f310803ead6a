/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): a secret is `whsec_` + base64 of 32 random
 * bytes; a delivery carries `webhook-id`, `webhook-timestamp` (seconds) and `webhook-signature`, which is
 * `v1,` + base64 of HMAC-SHA256 over `${id}.${timestamp}.${body}` keyed by the secret's decoded bytes.
 */
import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

export function newSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

export function sign(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return 'v1,' + createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
}

export function signedHeaders(secret: string, id: string, body: string, now: Date = new Date()): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': sign(secret, id, timestamp, body),
  };
}
