// The send benchmark's ceiling, one process of it: `count` SendEmail calls through the worker's own
// mail sender (api/src/mail/ses-sender.ts: the same SDK signer, undici pool and time-outs) with
// `concurrency` in flight, against `endpoint`; no database, no queue, no rendering. Started like a
// worker (its Node flags, tsx, the API's folder); prints `ready`, waits for a line on stdin, sends,
// then prints one JSON line: { seconds, sent, failed }.
//
//   node --import tsx bare-send.mjs <endpoint> <count> <concurrency> <first recipient number>
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { createSesClient } from '../../../api/src/mail/ses.ts';
import { createMailSender } from '../../../api/src/mail/ses-sender.ts';
import { sendEmailInput } from '../../../api/src/mail/message.ts';
import { TEMPLATE } from '../send.mjs';

const [endpoint, countArg, concurrencyArg, firstArg] = process.argv.slice(2);
const count = Number(countArg);
const concurrency = Number(concurrencyArg);
const first = Number(firstArg);

const ses = createSesClient({ aws: { region: 'us-east-1', sesEndpoint: endpoint, sesConfigurationSet: 'bench' } });
const sender = createMailSender(ses);
// A mail of the campaign's size: its html, a plain-text part, the unsubscribe headers and tags.
const mail = {
  subject: 'News for Ada',
  html: TEMPLATE,
  text: 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(60),
  unsubscribeUrl: 'http://127.0.0.1:8080/unsubscribe/0123456789abcdef0123456789abcdef0123456789abcdef',
};
const inputFor = (n) =>
  sendEmailInput(mail, {
    from: { name: 'Example News', email: 'newsletter@example.org' },
    to: `bare-${n}@example.org`,
    configurationSet: 'bench',
    tags: { campaign_id: 1, job_id: n },
  });

// The first call resolves the client's settings; made before the clock starts, as a worker's is.
await sender.send(await sender.prepare(inputFor(first - 1)));
console.log('ready');
const go = createInterface({ input: process.stdin });
await once(go, 'line');
// Nothing more comes from the benchmark: an open stdin would keep this process alive.
go.close();
process.stdin.destroy();

let next = 0;
let sent = 0;
let failed = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < count) {
      const n = first + next++;
      const outcome = await sender.send(await sender.prepare(inputFor(n)));
      if (outcome.kind === 'sent') sent++;
      else failed++;
    }
  }),
);
const seconds = (performance.now() - started) / 1000;
await sender.close();
ses.destroy();
process.stdout.write(`${JSON.stringify({ seconds, sent, failed })}\n`, () => process.exit(0));
