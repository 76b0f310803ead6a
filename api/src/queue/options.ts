import type { ConsumeOptions } from './message-queue.js';

/** Exponential from 1 s (1, 2, 4... s), capped at 5 min: the MessageQueueAdapter default. */
export function defaultRetryDelayMs(attempt: number): number {
  return Math.min(1000 * 2 ** Math.max(0, attempt - 1), 5 * 60_000);
}

/** Retries of one message for outages before its failures count as attempts again (about an hour). */
export const MAX_OUTAGE_RETRIES = 720;

/** Delay before the retry after the n-th outage failure (n from 1): 1, 2, 4, then 5 s. */
export function outageRetryDelayMs(outages: number): number {
  return Math.min(1000 * 2 ** Math.max(0, outages - 1), 5_000);
}

export interface ResolvedConsumeOptions {
  concurrency: number;
  maxAttempts: number;
  retryDelayMs: (attempt: number) => number;
  isOutage: (error: unknown) => boolean;
}

export function resolveConsumeOptions(options: ConsumeOptions = {}): ResolvedConsumeOptions {
  const concurrency = options.concurrency ?? 1;
  const maxAttempts = options.maxAttempts ?? 5;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError('concurrency must be a whole number >= 1');
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new RangeError('maxAttempts must be a whole number >= 1');
  return {
    concurrency,
    maxAttempts,
    retryDelayMs: options.retryDelayMs ?? defaultRetryDelayMs,
    isOutage: options.isOutage ?? (() => false),
  };
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
