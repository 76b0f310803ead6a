/**
 * Counting windows for the sign-up's rate limits: a count per key that starts again once its window
 * has passed. In this process's memory, as the other per-address limits (http/rate-limits.ts): several
 * API processes each count their share, which loosens a limit by their number and refuses nobody by
 * mistake. The limits that protect a stranger's inbox are in the database instead (signup_mails).
 */
export interface WindowCounter {
  /** Counts one for `key`; false (and nothing counted) when the key has used its `limit` in this window. */
  take(key: string): boolean;
  /** Whether the key has used its limit, without counting. */
  exhausted(key: string): boolean;
}

/** At most this many keys are remembered: past it the oldest windows are dropped (a flood of addresses cannot fill the memory). */
const MAX_KEYS = 100_000;

export function windowCounter(limit: number, windowMs: number, now: () => number = Date.now): WindowCounter {
  const windows = new Map<string, { count: number; endsAt: number }>();
  const current = (key: string) => {
    const window = windows.get(key);
    if (window && window.endsAt > now()) return window;
    if (window) windows.delete(key);
    return undefined;
  };
  return {
    take(key) {
      const window = current(key);
      if (window) {
        if (window.count >= limit) return false;
        window.count++;
        return true;
      }
      if (windows.size >= MAX_KEYS) windows.delete(windows.keys().next().value!);
      windows.set(key, { count: 1, endsAt: now() + windowMs });
      return true;
    },
    exhausted: (key) => (current(key)?.count ?? 0) >= limit,
  };
}
