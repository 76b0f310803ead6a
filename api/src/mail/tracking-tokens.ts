/**
 * The signed tokens in the links of sent mail: open pixel `/t/o/{token}`, click `/t/c/{token}`,
 * unsubscribe `/unsubscribe/{token}`. A token names a job (and a link) and carries an HMAC-SHA256
 * of them under TRACKING_SECRET, so nobody can make one for another job or link, and a click can
 * only ever redirect to a link stored for the campaign (no open redirect).
 *
 * Shape: the ids in base 36, then the first 22 base64url characters (132 bits) of the HMAC over
 * the kind and the ids, all joined by dots: `k3x.9f.<mac>`. Short, because every mail carries one
 * per link; URL-safe without escaping. The kind is inside the MAC, so a token of one kind never
 * passes as another. Comparison is constant-time.
 */
import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';

const MAC_LENGTH = 22;
const ID = '[0-9a-z]{1,11}';
const MAC = `[A-Za-z0-9_-]{${MAC_LENGTH}}`;
const ONE_ID = new RegExp(`^(${ID})\\.(${MAC})$`);
const TWO_IDS = new RegExp(`^(${ID})\\.(${ID})\\.(${MAC})$`);

type Kind = 'open' | 'click' | 'unsubscribe';

export interface TrackingTokens {
  open(jobId: number): string;
  click(jobId: number, linkId: number): string;
  unsubscribe(jobId: number): string;
  /** The job of a valid open token; undefined for anything else. */
  readOpen(token: string): { jobId: number } | undefined;
  readClick(token: string): { jobId: number; linkId: number } | undefined;
  readUnsubscribe(token: string): { jobId: number } | undefined;
}

export function createTrackingTokens(secret: string): TrackingTokens {
  if (secret.length < 16) throw new RangeError('the tracking secret must be at least 16 characters');
  // One key object for every MAC: given the secret as a string, Node would make a new one per call,
  // and a mail takes one MAC per link plus its pixel and unsubscribe links.
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  const mac = (kind: Kind, ids: string): string =>
    createHmac('sha256', key).update(`${kind}:${ids}`).digest('base64url').slice(0, MAC_LENGTH);

  const sign = (kind: Kind, ids: number[]): string => {
    const encoded = ids.map(encodeId).join('.');
    return `${encoded}.${mac(kind, encoded)}`;
  };

  const verify = (kind: Kind, ids: string, given: string): boolean => {
    const expected = Buffer.from(mac(kind, ids));
    const actual = Buffer.from(given);
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  };

  const readOne = (kind: Kind, token: string): { jobId: number } | undefined => {
    const match = ONE_ID.exec(token);
    if (!match || !verify(kind, match[1]!, match[2]!)) return undefined;
    const jobId = decodeId(match[1]!);
    return jobId === undefined ? undefined : { jobId };
  };

  return {
    open: (jobId) => sign('open', [jobId]),
    click: (jobId, linkId) => sign('click', [jobId, linkId]),
    unsubscribe: (jobId) => sign('unsubscribe', [jobId]),
    readOpen: (token) => readOne('open', token),
    readUnsubscribe: (token) => readOne('unsubscribe', token),
    readClick(token) {
      const match = TWO_IDS.exec(token);
      if (!match || !verify('click', `${match[1]}.${match[2]}`, match[3]!)) return undefined;
      const jobId = decodeId(match[1]!);
      const linkId = decodeId(match[2]!);
      return jobId === undefined || linkId === undefined ? undefined : { jobId, linkId };
    },
  };
}

function encodeId(id: number): string {
  if (!Number.isSafeInteger(id) || id < 1) throw new RangeError(`not an id: ${id}`);
  return id.toString(36);
}

function decodeId(encoded: string): number | undefined {
  const id = parseInt(encoded, 36);
  return Number.isSafeInteger(id) && id >= 1 ? id : undefined;
}

/** The absolute URLs of one recipient's tracking and unsubscribe links. */
export interface TrackingUrls {
  open(jobId: number): string;
  click(jobId: number, linkId: number): string;
  unsubscribe(jobId: number): string;
}

export function trackingUrls(publicUrl: string, tokens: TrackingTokens): TrackingUrls {
  const base = publicUrl.replace(/\/+$/, '');
  return {
    open: (jobId) => `${base}/t/o/${tokens.open(jobId)}`,
    click: (jobId, linkId) => `${base}/t/c/${tokens.click(jobId, linkId)}`,
    unsubscribe: (jobId) => `${base}/unsubscribe/${tokens.unsubscribe(jobId)}`,
  };
}
