/**
 * The send rate of the whole deployment, shared by every worker process through PostgreSQL
 * (table send_rate, migration 0005): together they never exceed SES's MaxSendRate, and they stop
 * at the daily quota instead of running into it.
 *
 * SES's account (GetAccount: MaxSendRate, Max24HourSend, SentLast24Hours) is read at start and
 * refreshed every minute, and again at once when the quota looks used up (it is a rolling 24
 * hours). A worker reserves a block of send slots (about a tenth of a second's worth) in one
 * statement and sends each mail at its slot. A slot missed by more than `toleranceMs` (a busy
 * event loop) is dropped rather than used, so late mails never bunch up with the next ones; the
 * pace is `safety` (93 %) of MaxSendRate: slots spaced 1/r apart, each mail leaving up to J late,
 * put at most floor(r (1 + J)) + 1 mails in any one second, under MaxSendRate while J stays under
 * 75 ms (the tolerance, a process not scheduled for a moment, the HTTP call itself).
 *
 * The pace adapts to the rate SES really grants (migration 0031; docs/decisions/sending.md): a 429
 * "Maximum sending rate exceeded" cuts the shared pace of every worker to 85 % (to 90 % of what SES
 * took since the last cut when that was under two seconds ago), at most once a second, never for a
 * call made before the last cut; it climbs back in 5 s to 95 % of where SES refused, then probes
 * upwards by 1 % of that a second, faster the longer SES takes everything, so the next refusal
 * comes rarely and costs a handful of calls.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Sql } from '../../db/database.js';
import type { Logger } from '../../logger.js';
import type { SendQuota } from '../quota/quota-service.js';
import { sendRateRepository } from './send-rate-repository.js';

export interface SendRateOptions {
  /** Fraction of MaxSendRate used. Default 0.93. */
  safety?: number;
  /** A slot later than this is dropped. Default 25 ms. */
  toleranceMs?: number;
  /** How often SES's account is read again. Default 60 s. */
  refreshMs?: number;
  /** The rate used while SES's account could never be read (SES's own sandbox rate). Default 1. */
  fallbackRate?: number;
}

export type SlotOutcome = 'go' | 'quota-reached';

export interface SendRateLimiter {
  /** Waits for this process's next send slot; 'quota-reached' once the daily quota is used up. */
  take(): Promise<SlotOutcome>;
  /** SES answered 429 for the rate to a call made at `calledAtMs` (Date.now() then): slow every worker down. */
  throttled(calledAtMs?: number): Promise<void>;
  /** The rate in use (mails per second): the safety margin and the shared pace applied; undefined before the account was read. */
  rate(): number | undefined;
  close(): void;
}

/**
 * Slots asked for at once: about 100 ms of sending, at least 1, at most 2,000. Slots a worker
 * cannot use in time go back to the quota with its next reservation, so a generous block costs
 * nothing, while a small one at a high rate would cost a round trip every few milliseconds.
 */
export function blockSize(rate: number): number {
  return Math.max(1, Math.min(2000, Math.round(rate / 10)));
}

export function createSendRateLimiter(
  db: Sql,
  account: () => Promise<SendQuota>,
  logger: Logger,
  options: SendRateOptions = {},
): SendRateLimiter {
  const safety = options.safety ?? 0.93;
  const toleranceMs = options.toleranceMs ?? 25;
  const refreshMs = options.refreshMs ?? 60_000;
  const fallbackRate = options.fallbackRate ?? 1;
  const repository = sendRateRepository(db);

  let maxRate: number | undefined;
  /** The shared pace (a fraction of MaxSendRate) as last seen by this process. */
  let pace = 1;
  let readAt = -Infinity;
  let reading: Promise<void> | undefined;
  let refilling: Promise<SlotOutcome | undefined> | undefined;
  /** This process's reserved slots, as performance.now() times, in order. */
  let slots: number[] = [];
  /** Reserved slots this process missed: given back to the daily quota with the next reservation. */
  let missed = 0;
  let closed = false;

  /**
   * Reads the account and records the quota left, less what workers reserved meanwhile; unless
   * another process recorded it less than a second ago (migration 0007): SES has not counted the
   * slots reserved since then yet, and would seem to give them back.
   */
  const readAccount = () =>
    (reading ??= (async () => {
      try {
        const reservedBefore = await repository.reservedTotal();
        const quota = await account();
        maxRate = quota.maxSendRate > 0 ? quota.maxSendRate : fallbackRate;
        const left = quota.max24HourSend < 0 ? null : Math.max(0, quota.max24HourSend - quota.sentLast24Hours);
        await repository.recordQuotaLeft(left, reservedBefore);
      } catch (err) {
        logger.warn({ err }, 'could not read the SES account; keeping the last known send rate');
        maxRate ??= fallbackRate;
      } finally {
        readAt = performance.now();
        reading = undefined;
      }
    })());

  // Started with the first mail: a process that never sends (the API, mostly) never asks SES.
  let timer: NodeJS.Timeout | undefined;

  const currentRate = () => (maxRate ?? fallbackRate) * safety;

  /** Reserves the next block; resolves 'quota-reached' when none is left today. */
  const refill = async (): Promise<SlotOutcome | undefined> => {
    if (!timer) {
      timer = setInterval(() => void readAccount(), refreshMs);
      timer.unref();
    }
    if (maxRate === undefined) await readAccount();
    for (;;) {
      const rate = currentRate();
      const returned = missed;
      missed = 0;
      // Blocks of about 100 ms at the pace last seen: a throttled pace must not be reserved far ahead.
      const paced = rate * pace;
      const r = await repository.reserve(blockSize(paced), rate, Math.max(300, 2000 / paced), returned);
      if (r.granted > 0) {
        // The schedule is in PostgreSQL's clock: compare it with ours (the same host's, or NTP's),
        // not with when the answer arrived, or a slow answer would shift this process's slots.
        const first = performance.now() + (r.first_at_ms - Date.now());
        pace = Math.min(1, 1000 / r.spacing_ms / rate);
        slots = Array.from({ length: r.granted }, (_, i) => first + i * r.spacing_ms);
        return undefined;
      }
      if (r.quota_reached) {
        // A rolling quota frees up as time passes: ask SES again, at most once a second.
        if (performance.now() - readAt < 1_000) return 'quota-reached';
        await readAccount();
        continue;
      }
      await sleep(Math.min(r.wait_ms, 1_000));
    }
  };

  return {
    async take() {
      for (;;) {
        if (closed) throw new Error('The send rate limiter is closed');
        const now = performance.now();
        while (slots.length > 0 && slots[0]! < now - toleranceMs) {
          slots.shift();
          missed++;
        }
        const slot = slots.shift();
        if (slot !== undefined) {
          // Woken too late (a busy event loop): this slot is gone; take the next one.
          if (slot > now + 1) {
            await sleep(slot - now);
            if (performance.now() > slot + toleranceMs) {
              missed++;
              continue;
            }
          }
          return 'go';
        }
        const outcome = await (refilling ??= refill().finally(() => (refilling = undefined)));
        if (outcome === 'quota-reached') return outcome;
      }
    },
    async throttled(calledAtMs) {
      // Slots reserved at the old pace go back: the next block is reserved at the new one.
      missed += slots.length;
      slots = [];
      pace = await repository.throttled(calledAtMs);
    },
    rate: () => (maxRate === undefined ? undefined : currentRate() * pace),
    close() {
      closed = true;
      clearInterval(timer);
    },
  };
}
