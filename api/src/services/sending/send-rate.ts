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
import { warmUpToday, type WarmUpPlan } from './warm-up.js';

export interface SendRateOptions {
  /** Fraction of MaxSendRate used. Default 0.93. */
  safety?: number;
  /** A slot later than this is dropped. Default 25 ms. */
  toleranceMs?: number;
  /** How often SES's account is read again. Default 60 s. */
  refreshMs?: number;
  /** The rate used while SES's account could never be read (SES's own sandbox rate). Default 1. */
  fallbackRate?: number;
  /** The warm-up plan: no more mails a day than its volume (every worker together). */
  warmUp?: WarmUpPlan | undefined;
  /** The clock of the warm-up's days (epoch milliseconds): tests move it. Default Date.now. */
  now?: () => number;
}

/** 'warm-up-reached': the warm-up plan's volume for the day is used up (the next day begins at `warmUpResumesAt()`). */
export type SlotOutcome = 'go' | 'quota-reached' | 'warm-up-reached';

export interface SendRateLimiter {
  /**
   * Waits for this process's next send slot; 'quota-reached' once the daily quota is used up,
   * 'warm-up-reached' once the warm-up's volume for the day is. `urgent` (a mail at its domain's
   * slot, which must leave now or not at all): the next slot of a taker already waiting is handed over.
   */
  take(options?: { urgent?: boolean }): Promise<SlotOutcome>;
  /** When the warm-up's next day begins (the plan's volume grows then), by the limiter's clock. */
  warmUpResumesAt(): Date;
  /** SES answered 429 for the rate to a call made at `calledAtMs` (Date.now() then): slow every worker down. */
  throttled(calledAtMs?: number): Promise<void>;
  /** The rate in use (mails per second): the safety margin and the shared pace applied; undefined before the account was read. */
  rate(): number | undefined;
  close(): void;
}

/**
 * Slots asked for at once: about 100 ms of sending, at least 1, at most 2,000. Slots a worker
 * cannot use in time go back to the quota (and to the warm-up's volume of the day they were reserved
 * in) with its next reservation, so a generous block costs nothing, while a small one at a high rate
 * would cost a round trip every few milliseconds.
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
  const { warmUp } = options;
  const now = options.now ?? Date.now;
  const repository = sendRateRepository(db);

  let maxRate: number | undefined;
  /** The shared pace (a fraction of MaxSendRate) as last seen by this process. */
  let pace = 1;
  let readAt = -Infinity;
  let reading: Promise<void> | undefined;
  let refilling: Promise<SlotOutcome | undefined> | undefined;
  /** This process's reserved slots, as performance.now() times, in order. */
  let slots: number[] = [];
  /** The warm-up date the slots in `slots` count under (the day of their reservation). */
  let slotsDate: string | undefined;
  /** Reserved slots this process missed: given back to the daily quota with the next reservation. */
  let missed = 0;
  /**
   * The missed slots by the warm-up date they were reserved under: each goes back to its own day's
   * volume only (a slot of yesterday given back today would let today send more than its volume).
   */
  const missedOfDay = new Map<string, number>();
  const miss = (count: number, date: string | undefined) => {
    missed += count;
    if (date !== undefined) missedOfDay.set(date, (missedOfDay.get(date) ?? 0) + count);
  };
  /** Slots taken from `slots` whose taker has not gone or missed yet: the day's answer waits for them. */
  let inHand = 0;
  const settledWaiters: (() => void)[] = [];
  const settle = () => {
    inHand--;
    if (inHand === 0) for (const wake of settledWaiters.splice(0)) wake();
  };
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
      const day = warmUp ? warmUpToday(warmUp, now()) : undefined;
      // Missed slots of another day than this reservation's go back to the quota only.
      const dayReturned = day ? (missedOfDay.get(day.date) ?? 0) : 0;
      missedOfDay.clear();
      const r = await repository.reserve(blockSize(paced), rate, Math.max(300, 2000 / paced), returned, day, dayReturned);
      if (r.granted > 0) {
        // The schedule is in PostgreSQL's clock: compare it with ours (the same host's, or NTP's),
        // not with when the answer arrived, or a slow answer would shift this process's slots.
        const first = performance.now() + (r.first_at_ms - Date.now());
        pace = Math.min(1, 1000 / r.spacing_ms / rate);
        slots = Array.from({ length: r.granted }, (_, i) => first + i * r.spacing_ms);
        slotsDate = day?.date;
        return undefined;
      }
      if (r.warm_up_reached) return 'warm-up-reached';
      if (r.quota_reached) {
        // A rolling quota frees up as time passes: ask SES again, at most once a second.
        if (performance.now() - readAt < 1_000) return 'quota-reached';
        await readAccount();
        continue;
      }
      await sleep(Math.min(r.wait_ms, 1_000));
    }
  };

  /** Takers (not urgent) sleeping until a slot of theirs. */
  let sleepers = 0;
  /** Urgent takers waiting for a sleeping taker to hand its slot over (true), or to take one themselves (false). */
  const urgentWaiters: ((handed: boolean) => void)[] = [];
  /** With no taker left to hand a slot over, the urgent ones take their own. */
  const flushUrgent = () => {
    if (sleepers === 0) for (const waiter of urgentWaiters.splice(0)) waiter(false);
  };

  return {
    async take(options) {
      const urgent = options?.urgent === true;
      // An urgent mail (its domain's slot is now) goes at the next slot of any taker of this process.
      if (urgent && sleepers > 0 && (await new Promise<boolean>((resolve) => urgentWaiters.push(resolve)))) return 'go';
      for (;;) {
        if (closed) throw new Error('The send rate limiter is closed');
        const now = performance.now();
        while (slots.length > 0 && slots[0]! < now - toleranceMs) {
          slots.shift();
          miss(1, slotsDate);
        }
        const slot = slots.shift();
        if (slot !== undefined) {
          const date = slotsDate;
          inHand++;
          try {
            // Woken too late (a busy event loop): this slot is gone; take the next one.
            if (slot > now + 1) {
              if (!urgent) sleepers++;
              try {
                await sleep(slot - now);
              } finally {
                if (!urgent) sleepers--;
              }
              if (performance.now() > slot + toleranceMs) {
                miss(1, date);
                flushUrgent();
                continue;
              }
            }
            const waiter = urgent ? undefined : urgentWaiters.shift();
            if (waiter) {
              // This slot goes to the urgent mail; this taker queues again.
              waiter(true);
              continue;
            }
            flushUrgent();
            return 'go';
          } finally {
            settle();
          }
        }
        let outcome: SlotOutcome | undefined;
        try {
          outcome = await (refilling ??= refill().finally(() => (refilling = undefined)));
        } finally {
          // No slot for this taker (an outcome, an error): urgent ones waiting on it take their own.
          flushUrgent();
        }
        // The day's volume looks used up while slots of it are still in this process's hands: they may yet
        // be missed and go back to the day. The answer waits for them, so the day sends all of its volume.
        if (outcome === 'warm-up-reached' && (inHand > 0 || missed > 0)) {
          if (inHand > 0) await new Promise<void>((resolve) => settledWaiters.push(resolve));
          continue;
        }
        if (outcome !== undefined) return outcome;
      }
    },
    async throttled(calledAtMs) {
      // Slots reserved at the old pace go back: the next block is reserved at the new one.
      miss(slots.length, slotsDate);
      slots = [];
      pace = await repository.throttled(calledAtMs);
    },
    warmUpResumesAt: () => (warmUp ? warmUpToday(warmUp, now()).nextDayAt : new Date(now())),
    rate: () => (maxRate === undefined ? undefined : currentRate() * pace),
    close() {
      closed = true;
      for (const waiter of urgentWaiters.splice(0)) waiter(false);
      clearInterval(timer);
    },
  };
}
