// Latency figures the benchmarks print.

/** The p-th percentile (nearest rank) of ascending `sorted`. */
export function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
