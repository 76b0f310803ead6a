/**
 * The statements of the shared send rate (table send_rate, migrations 0005, 0007 and 0031; the
 * reservation and the throttle are PL/pgSQL functions there, so each is one round trip and one
 * row lock). send-rate.ts holds the pacing rules.
 */
import type { Sql } from '../../db/database.js';

/** One reservation of send slots (reserve_send_slots). */
export interface Reservation {
  granted: number;
  first_at_ms: number;
  wait_ms: number;
  spacing_ms: number;
  quota_reached: boolean;
  /** The warm-up's volume for the day is used up. */
  warm_up_reached: boolean;
}

/** The warm-up's day (its UTC date) and the most mails the plan allows on it. */
export interface WarmUpDay {
  date: string;
  volume: number;
}

export function sendRateRepository(db: Sql) {
  return {
    /** Slots reserved by every worker so far: what SES may not have counted yet. */
    async reservedTotal(): Promise<number> {
      const { rows } = await db.query<{ reserved_total: number }>('SELECT reserved_total FROM send_rate WHERE id');
      return rows[0]!.reserved_total;
    },

    /**
     * Records the daily quota left (`left`: null when unlimited), less what workers reserved since
     * `reservedBefore` was read; unless another process recorded it less than a second ago.
     */
    async recordQuotaLeft(left: number | null, reservedBefore: number): Promise<void> {
      await db.query(
        `UPDATE send_rate SET quota_left = $1::float8 - (reserved_total - $2), quota_read_at = clock_timestamp()
          WHERE id AND (quota_read_at IS NULL OR quota_read_at < clock_timestamp() - interval '1 second')`,
        [left, reservedBefore],
      );
    },

    /**
     * Reserves up to `count` slots at `rate` a second, giving back `returned` missed ones to the quota;
     * within the warm-up's volume for `day` when a plan is set (migration 0035), `dayReturned` of the
     * missed ones going back to that day's volume (those reserved under it; migration 0037).
     */
    async reserve(count: number, rate: number, leaseMs: number, returned: number, day?: WarmUpDay, dayReturned = 0): Promise<Reservation> {
      const { rows } = await db.query<Reservation>('SELECT * FROM reserve_send_slots($1, $2, $3, $4, $5::date, $6::bigint, $7)', [
        count,
        rate,
        leaseMs,
        returned,
        day?.date ?? null,
        day?.volume ?? null,
        dayReturned,
      ]);
      return rows[0]!;
    },

    /**
     * SES answered 429 to a call made at `calledAtMs` (epoch milliseconds; unknown: now): the shared pace
     * is cut (at most once a second, never for a call made before the last cut); answers the pace now in force.
     */
    async throttled(calledAtMs?: number): Promise<number> {
      const { rows } = await db.query<{ pace: number }>('SELECT send_rate_throttled($1) AS pace', [calledAtMs ?? null]);
      return rows[0]!.pace;
    },

    /** The shared pace (a fraction of MaxSendRate) now. */
    async pace(): Promise<number> {
      const { rows } = await db.query<{ pace: number }>(
        'SELECT send_rate_pace(slowdown, ceiling, slowed_at, clock_timestamp()) AS pace FROM send_rate WHERE id',
      );
      return rows[0]!.pace;
    },
  };
}

export type SendRateRepository = ReturnType<typeof sendRateRepository>;
