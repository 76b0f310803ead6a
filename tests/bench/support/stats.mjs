// Latency figures the benchmarks print.
import { performance } from 'node:perf_hooks';

/** The p-th percentile (nearest rank) of ascending `sorted`. */
export function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * One API call's latency: `warmup` calls first (not counted), then `samples` timed ones, each
 * answered 200 or the benchmark stops. Answers the first call's time (`coldMs`, before any cache),
 * p50 and p95 of the samples, and the last answer's body.
 */
export async function timedCalls(stack, url, { warmup, samples }) {
  const times = [];
  let body;
  let coldMs;
  for (let i = 0; i < warmup + samples; i++) {
    const started = performance.now();
    const res = await stack.api(url);
    body = await res.json();
    const ms = performance.now() - started;
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(body)}`);
    if (i === 0) coldMs = Number(ms.toFixed(2));
    if (i >= warmup) times.push(ms);
  }
  times.sort((a, b) => a - b);
  return { coldMs, p50Ms: Number(percentile(times, 50).toFixed(2)), p95Ms: Number(percentile(times, 95).toFixed(2)), body };
}

/**
 * The same run's ceiling for a page's latency: the API process answering `/healthz` (no token check,
 * no database) through the same client, so a page's p95 can be read as a ratio to what the machine
 * gives any request at that moment.
 */
export async function floorCall(stack, { warmup = 20, samples = 200 } = {}) {
  const { p50Ms, p95Ms } = await timedCalls(stack, '/healthz', { warmup, samples });
  return { floorP50Ms: p50Ms, floorP95Ms: p95Ms };
}

/** A p95 as a multiple of the floor's (one decimal). */
export const overFloor = (p95Ms, floorP95Ms) => Number((p95Ms / Math.max(floorP95Ms, 0.01)).toFixed(1));
