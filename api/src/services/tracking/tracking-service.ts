/**
 * What the links in sent mail do (docs/architecture.md, Mail and tracking). Every token is checked first (HMAC,
 * constant-time): a forged or altered token records nothing and never redirects.
 *  - open: the hit is taken; the caller always answers the image;
 *  - click: the hit is taken and the answer is the link's stored href, never anything from the
 *    request (no open redirect); undefined for a bad token or a link that is gone. A token signs a
 *    job and a link of the same campaign together, so the pair needs no lookup; the href is read
 *    once per link and kept (a sent campaign's links never change);
 *  - unsubscribe: the address is suppressed for the organisation's later sends; repeating it is
 *    harmless (RFC 8058 one-click).
 *
 * Hits are kept in memory and recorded every `flushEveryMs` in one statement (first opens and
 * clicks, counters, events), so a pixel costs no database round trip. A crash loses at most that
 * moment of statistics; `close` records what is left. Should the database be away, hits wait (up to
 * `maxBuffered`; the oldest go first) and are tried again.
 */
import type { Database } from '../../db/database.js';
import type { Logger } from '../../logger.js';
import { createTrackingTokens } from '../../mail/tracking-tokens.js';
import { recordActivity } from '../activity/activity-service.js';
import { classifyHit, clientAddress } from './classify.js';
import { trackingRepository, type TrackingHit } from './repository.js';

/** What the request of a hit tells about who made it. */
export interface HitRequest {
  userAgent: string;
  /** Express's req.ip (X-Forwarded-For only from the proxies TRUST_PROXY names). */
  ip: string | undefined;
}

/** A hit with its evidence and the verdict on what it says by itself (classify.ts). */
function judged(kind: 'open' | 'click', jobId: number, linkId: number | null, { userAgent, ip }: HitRequest): TrackingHit {
  const clientIp = clientAddress(ip);
  const verdict = classifyHit({ kind, userAgent, clientIp });
  return { jobId, linkId, userAgent, at: new Date(), clientIp, machineReason: verdict.machine ? verdict.reason : null };
}

export interface TrackingServiceDeps {
  db: Database;
  trackingSecret: string;
  logger: Logger;
  flushEveryMs?: number;
  maxBuffered?: number;
}

const CACHED_LINKS = 10_000;
const FLUSH_ATTEMPTS = 3;

export function createTrackingService({ db, trackingSecret, logger, flushEveryMs = 250, maxBuffered = 100_000 }: TrackingServiceDeps) {
  const repo = trackingRepository(db);
  const tokens = createTrackingTokens(trackingSecret);
  const hrefs = new Map<number, string>();
  let buffer: TrackingHit[] = [];
  let failures = 0;
  let flushing: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;

  /** Records the buffer, and what arrives meanwhile, until it is empty or the database fails. */
  const record = async (): Promise<void> => {
    while (buffer.length > 0) {
      const hits = buffer;
      buffer = [];
      try {
        await repo.recordHits(hits);
        failures = 0;
      } catch (err) {
        if (++failures >= FLUSH_ATTEMPTS) {
          logger.error({ err, hits: hits.length }, 'tracking hits could not be recorded; dropped');
          failures = 0;
        } else {
          logger.warn({ err, hits: hits.length }, 'tracking hits not recorded yet; will try again');
          buffer = hits.concat(buffer).slice(-maxBuffered);
        }
        return;
      }
    }
  };

  // One recording at a time; a flush asked for meanwhile waits for it (it takes the new hits too).
  const flush = (): Promise<void> => (flushing ??= record().finally(() => (flushing = undefined)));

  const take = (hit: TrackingHit) => {
    buffer.push(hit);
    if (buffer.length > maxBuffered) buffer.shift();
    // Started with the first hit: a process that serves none never runs it.
    if (!timer) {
      timer = setInterval(() => void flush(), flushEveryMs);
      timer.unref();
    }
  };

  return {
    open(token: string, request: HitRequest): void {
      const read = tokens.readOpen(token);
      if (read) take(judged('open', read.jobId, null, request));
    },

    async click(token: string, request: HitRequest): Promise<string | undefined> {
      const read = tokens.readClick(token);
      if (!read) return undefined;
      let href = hrefs.get(read.linkId);
      if (href === undefined) {
        href = await repo.linkHref(read.linkId);
        if (href === undefined) return undefined;
        if (hrefs.size >= CACHED_LINKS) hrefs.clear();
        hrefs.set(read.linkId, href);
      }
      take(judged('click', read.jobId, read.linkId, request));
      return href;
    },

    /** Records the hits taken so far (tests, and before the process stops). */
    flush,

    async close(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = undefined;
      await flush();
    },

    /** What the unsubscribe link's page says: 'invalid' for a link that is not valid. */
    async unsubscribeStatus(token: string): Promise<'invalid' | 'subscribed' | 'unsubscribed'> {
      const read = tokens.readUnsubscribe(token);
      return (read && (await repo.unsubscribeStatus(read.jobId))) ?? 'invalid';
    },

    /**
     * False for a link that is not valid. The first unsubscribe of an address is recorded in the
     * activity log with the suppression, the recipient as the one who acted, and in the consent ledger
     * with the client's address and agent when the caller gives them (a repeat changes nothing).
     */
    async unsubscribe(token: string, request?: HitRequest): Promise<boolean> {
      const read = tokens.readUnsubscribe(token);
      if (!read) return false;
      const client = { address: request ? clientAddress(request.ip) : null, userAgent: request?.userAgent || null };
      return db.transaction(async (tx) => {
        const { found, added } = await repo.unsubscribe(read.jobId, tx, client);
        if (added) {
          const campaign = { type: 'campaign' as const, id: added.campaignId, name: added.campaignName };
          await recordActivity(tx, { actor: { email: added.email }, kind: 'unsubscribe', object: campaign });
        }
        return found;
      });
    },
  };
}

export type TrackingService = ReturnType<typeof createTrackingService>;
