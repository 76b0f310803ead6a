/**
 * Amazon SNS messages as the SES event webhook receives them: parsing, and the checks that make a
 * message trustworthy before anything in it is used.
 *
 * - The signature: SNS signs a canonical string of the message's fields with the private key of a
 *   certificate it publishes; SignatureVersion 1 is SHA1withRSA, 2 is SHA256withRSA.
 * - The certificate is fetched only over https from an SNS host of a region
 *   (`sns.<region>.amazonaws.com`, or `.amazonaws.com.cn`), at a path SNS uses
 *   (`/SimpleNotificationService-<id>.pem`); anything else is refused before any request is made, so
 *   a forged message cannot point the server at a certificate of its own or at an internal address.
 * - A subscription is confirmed only by visiting a SubscribeURL on such a host, asking for
 *   ConfirmSubscription of the same topic.
 *
 * Written here rather than taken from a package: the available validators fetch certificates
 * themselves, which tests could not serve without weakening these rules; here the fetch is handed
 * in, and the rules above always apply (tests sign with their own certificate, served by their own
 * fetcher, at a URL that passes the same rules).
 */
import { createVerify, X509Certificate } from 'node:crypto';
import { z } from 'zod';

export const snsMessage = z.object({
  Type: z.enum(['Notification', 'SubscriptionConfirmation', 'UnsubscribeConfirmation']),
  MessageId: z.string().min(1).max(256),
  TopicArn: z.string().min(1).max(1024),
  Subject: z.string().max(1024).nullish(),
  Message: z.string().max(262_144),
  Timestamp: z.string().max(64),
  SignatureVersion: z.enum(['1', '2']),
  Signature: z.string().min(1).max(4096),
  SigningCertURL: z.string().max(2048),
  SubscribeURL: z.string().max(2048).optional(),
  Token: z.string().max(2048).optional(),
});

export type SnsMessage = z.infer<typeof snsMessage>;

export class SnsMessageError extends Error {
  constructor(
    readonly reason: 'malformed' | 'untrusted',
    message: string,
  ) {
    super(message);
    this.name = 'SnsMessageError';
  }
}

const SNS_HOST = /^sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/;
const CERT_PATH = /^\/SimpleNotificationService-[A-Za-z0-9]+\.pem$/;

/** True for an https URL on an SNS host of a region, with no credentials or odd port. */
function isSnsUrl(url: URL): boolean {
  return url.protocol === 'https:' && SNS_HOST.test(url.hostname) && url.port === '' && url.username === '' && url.password === '';
}

export function isSnsCertificateUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return isSnsUrl(url) && CERT_PATH.test(url.pathname) && url.search === '';
}

/** A SubscribeURL that only confirms a subscription to `topicArn` at SNS. */
export function isGenuineSubscribeUrl(value: string, topicArn: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (
    isSnsUrl(url) &&
    url.pathname === '/' &&
    url.searchParams.get('Action') === 'ConfirmSubscription' &&
    url.searchParams.get('TopicArn') === topicArn &&
    (url.searchParams.get('Token') ?? '') !== ''
  );
}

/** The canonical string SNS signs: `Key\nValue\n` for each field of the type, in this order. */
export function stringToSign(message: SnsMessage): string {
  const keys =
    message.Type === 'Notification'
      ? (['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'] as const)
      : (['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'] as const);
  let text = '';
  for (const key of keys) {
    const value = message[key];
    // Subject is signed only when the message has one.
    if (value === undefined || value === null) continue;
    text += `${key}\n${value}\n`;
  }
  return text;
}

/** Parses a webhook body (SNS posts JSON as text/plain); throws SnsMessageError('malformed'). */
export function parseSnsMessage(body: unknown): SnsMessage {
  let value = body;
  if (typeof body === 'string') {
    try {
      value = JSON.parse(body);
    } catch {
      throw new SnsMessageError('malformed', 'The body is not an SNS message');
    }
  }
  const parsed = snsMessage.safeParse(value);
  if (!parsed.success) throw new SnsMessageError('malformed', 'The body is not an SNS message');
  return parsed.data;
}

export type CertificateFetcher = (url: string) => Promise<string>;

/** Fetches a certificate (PEM) over https; a few seconds at most, a few kilobytes at most. */
export const fetchCertificate: CertificateFetcher = async (url) => {
  const response = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(5_000) });
  if (!response.ok) throw new Error(`certificate fetch answered ${response.status}`);
  const text = await response.text();
  if (text.length > 16_384) throw new Error('certificate too large');
  return text;
};

/**
 * Verifies SNS signatures; certificates are cached by URL (SNS rotates them rarely, and a burst of
 * events must not fetch one per message).
 */
export function snsVerifier(fetcher: CertificateFetcher = fetchCertificate) {
  const certificates = new Map<string, Promise<X509Certificate>>();

  const certificate = (url: string): Promise<X509Certificate> => {
    let cached = certificates.get(url);
    if (!cached) {
      cached = fetcher(url).then((pem) => new X509Certificate(pem));
      // A failed fetch is not kept: the next message tries again.
      cached.catch(() => certificates.delete(url));
      certificates.set(url, cached);
    }
    return cached;
  };

  return async function verify(message: SnsMessage): Promise<void> {
    if (!isSnsCertificateUrl(message.SigningCertURL)) {
      throw new SnsMessageError('untrusted', 'The signing certificate is not an SNS certificate');
    }
    let cert: X509Certificate;
    try {
      cert = await certificate(message.SigningCertURL);
    } catch {
      throw new SnsMessageError('untrusted', 'The signing certificate could not be fetched');
    }
    if (Date.parse(cert.validTo) < Date.now()) throw new SnsMessageError('untrusted', 'The signing certificate has expired');
    const verifier = createVerify(message.SignatureVersion === '1' ? 'RSA-SHA1' : 'RSA-SHA256');
    verifier.update(stringToSign(message), 'utf8');
    if (!verifier.verify(cert.publicKey, message.Signature, 'base64')) {
      throw new SnsMessageError('untrusted', 'The SNS signature does not verify');
    }
  };
}

export type SnsVerifier = ReturnType<typeof snsVerifier>;
