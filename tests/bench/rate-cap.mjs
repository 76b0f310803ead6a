// `pnpm bench rate-cap`: two worker processes sending one campaign for 60 s against a local
// SES-compatible endpoint whose account says MaxSendRate 100. Prints the most mails SES took in any
// one second (a sliding window over the endpoint's arrival times; must be <= 100) and the mean rate
// over the 60 s from the first mail (budget >= 90).
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { seedCampaign, sendCampaign, startCampaignStack } from './send.mjs';

const MAX_SEND_RATE = 100;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);

/** The most arrival times inside any window of one second. */
function maxPerSecond(times) {
  let best = 0;
  for (let from = 0, to = 0; to < times.length; to++) {
    while (times[to] - times[from] >= 1000) from++;
    best = Math.max(best, to - from + 1);
  }
  return best;
}

async function main() {
  const stack = await startCampaignStack({ maxSendRate: MAX_SEND_RATE, max24HourSend: -1 });
  try {
    // Enough for the whole window at the full rate.
    const id = await seedCampaign(stack, MAX_SEND_RATE * SECONDS);
    await sendCampaign(stack, id);
    const { acceptedAt } = stack.ses;
    while (acceptedAt.length === 0) await sleep(20);
    const first = acceptedAt[0];
    const end = first + SECONDS * 1000;
    while (performance.now() < end) {
      await sleep(5000);
      console.log(`  ${acceptedAt.length} mails after ${((performance.now() - first) / 1000).toFixed(0)} s`);
    }
    const window = acceptedAt.filter((at) => at < end);
    const maxInOneSecond = maxPerSecond(window);
    const meanPerSecond = Number((window.length / SECONDS).toFixed(1));
    console.log(`${window.length} mails in ${SECONDS} s, ${stack.ses.throttled} refused by the endpoint`);
    console.log(`highest in any one second ${maxInOneSecond} (must be <= ${MAX_SEND_RATE}); mean ${meanPerSecond}/s (budget >= 90)`);
    console.log(
      JSON.stringify({ bench: 'rate-cap', maxSendRate: MAX_SEND_RATE, seconds: SECONDS, maxPerSecond: maxInOneSecond, meanPerSecond }),
    );
  } finally {
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
