/**
 * The warm-up plan (issue 28; WARMUP_START, WARMUP_FACTOR, WARMUP_START_DATE, docs/decisions/sending.md,
 * "Warm-up"): a new sending domain or dedicated IP sends at most `start` mails on its first day, and
 * `factor` times the day before's on each following day, until the plan's volume passes what SES
 * allows and it no longer matters. Days are UTC days from the start date. Every worker counts the
 * day's mails in the one send_rate row (migration 0035), so the volume holds across processes.
 */

export interface WarmUpPlan {
  /** Mails on the first day. */
  start: number;
  /** Growth per day (1 keeps the volume flat). */
  factor: number;
  /** The first day, YYYY-MM-DD (UTC). */
  startDate: string;
}

/** Why a batch stops sending when the day's volume is used up (the campaign pauses until the next day). */
export const WARM_UP_REACHED = "The warm-up's volume for today is used up; sending continues tomorrow.";

const DAY_MS = 86_400_000;
/** Beyond this the plan no longer limits anything (and the figure stays a safe integer). */
const UNLIMITED = 1e12;

/** The plan's day at `atMs`: 0 on the start date (and before it), 1 the next day... */
export function warmUpDay(plan: WarmUpPlan, atMs: number): number {
  return Math.max(0, Math.floor((atMs - Date.parse(`${plan.startDate}T00:00:00Z`)) / DAY_MS));
}

/** The most mails the plan allows on its day `day`. */
export function warmUpVolume(plan: WarmUpPlan, day: number): number {
  const volume = plan.start * plan.factor ** day;
  return Number.isFinite(volume) ? Math.min(UNLIMITED, Math.floor(volume)) : UNLIMITED;
}

/**
 * Where the plan stands at `atMs`: the UTC date the day's mails are counted under, the plan's day and
 * its volume (days before the start date are its first day), and when the next day begins.
 */
export function warmUpToday(plan: WarmUpPlan, atMs: number): { day: number; date: string; volume: number; nextDayAt: Date } {
  const day = warmUpDay(plan, atMs);
  const midnight = Math.floor(atMs / DAY_MS) * DAY_MS;
  return {
    day,
    date: new Date(midnight).toISOString().slice(0, 10),
    volume: warmUpVolume(plan, day),
    nextDayAt: new Date(midnight + DAY_MS),
  };
}
