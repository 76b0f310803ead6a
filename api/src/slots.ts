/**
 * Slots: a counted limit on work in flight (a semaphore that hands out several at once). `take`
 * waits until at least `atLeast` slots (or `wanted`, if fewer) are free and takes up to `wanted` of
 * them; each is given back with `release` once its work is over. Nothing here knows what the work
 * is: sending uses it for the SES calls one worker may have in flight (SEND_CONCURRENCY).
 *
 * Apart from services/ on purpose: it holds no rule of the product, and a second user (an import
 * limiting its parallel COPYs, say) should find it here rather than write its own.
 */
export interface Slots {
  /** Waits for min(wanted, atLeast) free slots (at least 1), then takes as many as are free, up to `wanted`. */
  take(wanted: number, options?: { atLeast?: number }): Promise<number>;
  /** Gives back `count` slots (nothing for 0 or less) and wakes whoever waits for them. */
  release(count: number): void;
  /** Slots free now. */
  free(): number;
}

export function createSlots(limit: number): Slots {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError('slots: the limit must be a whole number >= 1');
  let free = limit;
  const waiting: (() => void)[] = [];
  return {
    async take(wanted, { atLeast = 1 } = {}) {
      if (!Number.isInteger(wanted) || wanted < 1) throw new RangeError('slots: take at least one');
      const enough = Math.max(1, Math.min(wanted, atLeast, limit));
      while (free < enough) await new Promise<void>((resolve) => waiting.push(resolve));
      const taken = Math.min(wanted, free);
      free -= taken;
      return taken;
    },
    release(count) {
      if (count <= 0) return;
      free = Math.min(limit, free + count);
      // Every waiter looks again: one released slot may be all one of them needs.
      for (const wake of waiting.splice(0)) wake();
    },
    free: () => free,
  };
}
