// The suite's local SES as a process of its own (support/local-ses.ts starts it with tsx): the very
// server the one-command stack embeds when SES_ENDPOINT is unset (api/dev/embedded/ses.ts:
// aws-ses-v2-local, whose GetAccount reports the mails it really took in the last 24 hours).
// Usage: tsx local-ses-server.mjs <port>
import { startEmbeddedSes } from '../../../api/dev/embedded/ses.ts';

const port = Number(process.argv[2]);
if (!Number.isInteger(port) || port <= 0) {
  console.error('usage: local-ses-server.mjs <port>');
  process.exit(2);
}
// Mail to unverified.example is refused as SES's sandbox refuses an unverified address (the report journey's failed mail, support/report-journey.ts).
const ses = await startEmbeddedSes({ host: '127.0.0.1', port, unverifiedDomains: ['unverified.example'] });
console.log(`local SES at ${ses.endpoint}, inbox at ${ses.endpoint}/store`);
