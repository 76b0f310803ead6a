/**
 * Which opens and clicks a person made, and which a machine (an addition to the spec; README,
 * "Architecture"). Every rule is here; the recording (record_tracking_hits, migrations 0015, 0018) applies
 * the ones that need more than the hit itself with the figures below.
 *
 * Of one hit, from what the request says (classifyHit):
 *  - Gmail's and Yahoo's image proxies fetch the images when the person opens the mail: human. Checked
 *    first, since their agents name a proxy and would pass for bots; and only from the proxy's own
 *    addresses, since anyone can put 'GoogleImageProxy' in an agent (`curl/8.5.0 GoogleImageProxy`):
 *    from elsewhere the agent is judged as any other, and isbot takes it for a bot's;
 *  - Apple Mail Privacy Protection fetches every image on delivery, opened or not, from Apple's
 *    addresses (or its relay partners') with a bare "Mozilla/5.0": a machine open. Only opens: a
 *    person clicking in Safari through iCloud Private Relay comes from the same addresses;
 *  - a bot's user agent (isbot), or none at all: a machine;
 *  - anything else (a browser, a mail client): a person.
 * Of one mail's hits together (in SQL, over the job's recent hits, whichever process took them):
 *  - a click less than TOO_SOON_MS after the mail was sent: a link scanner (too soon for a person);
 *  - every link of the mail (SCANNER_BURST_LINKS or more) followed within BURST_MS either side of one
 *    of its clicks: a scanner's burst; the mail's hits within 2 x BURST_MS of that click are machines'.
 *    Not on a mail of fewer links: a person may well click both of two links within seconds, and the
 *    hidden link still gives such a mail's scanners away;
 *  - a hit on the hidden link (an anchor with no text and no size, that no person sees): its
 *    mail's hits within BURST_MS either side are machines'.
 */
import { BlockList, isIP } from 'node:net';
import { isbot } from 'isbot';
import type { components } from '@mailroom/api-client';

/** The contract's (openapi.yaml, MachineReason): the report's rows and export say them. */
export type MachineReason = components['schemas']['MachineReason'];
export type HumanReason = 'gmail-image-proxy' | 'yahoo-image-proxy' | 'person';

export type Verdict = { machine: true; reason: MachineReason } | { machine: false; reason: HumanReason };

/** What one hit tells by itself. */
export interface HitEvidence {
  kind: 'open' | 'click';
  userAgent: string;
  /** The client's address as Express gives it (req.ip, TRUST_PROXY applied); null when unknown. */
  clientIp: string | null;
}

/** A click sooner than this after sending is a scanner's: a person has not read the mail yet. */
export const TOO_SOON_MS = 10_000;
/** How close together a scanner's hits of one mail come (every link, or the hidden link and the rest). */
export const BURST_MS = 5_000;
/**
 * The fewest links (the hidden link aside) a mail needs for "every link within BURST_MS" to be a
 * scanner's burst: two quick clicks are a person's as often as a machine's, three hardly ever.
 */
export const SCANNER_BURST_LINKS = 3;

/**
 * The main blocks of Apple's published egress ranges (iCloud Private Relay, through which Mail
 * Privacy Protection fetches images): Apple's own 17.0.0.0/8 and its IPv6 blocks, and the blocks of
 * its relay partners (Akamai, Cloudflare, Fastly) that hold most of the published list.
 */
export const APPLE_PROXY_RANGES: readonly string[] = [
  '17.0.0.0/8',
  '104.28.0.0/16',
  '146.75.0.0/16',
  '172.224.0.0/12',
  '2403:300::/32',
  '2620:149::/32',
  '2a01:b740::/32',
  '2a02:26f7::/32',
  '2a04:4e41::/32',
  '2a09:bac0::/29',
  '2606:54c0::/29',
];

/**
 * Google's published mail networks (the _netblocks of its SPF record), from which Gmail's image
 * proxy fetches (66.249.8x, 66.102, 74.125, 64.233 ... in practice).
 */
export const GMAIL_PROXY_RANGES: readonly string[] = [
  '35.190.247.0/24',
  '64.233.160.0/19',
  '66.102.0.0/20',
  '66.249.80.0/20',
  '72.14.192.0/18',
  '74.125.0.0/16',
  '108.177.8.0/21',
  '108.177.96.0/19',
  '172.217.0.0/19',
  '172.217.32.0/20',
  '172.217.128.0/19',
  '172.217.160.0/20',
  '172.217.192.0/19',
  '172.253.56.0/21',
  '172.253.112.0/20',
  '173.194.0.0/16',
  '209.85.128.0/17',
  '216.58.192.0/19',
  '216.239.32.0/19',
  '2001:4860:4000::/36',
  '2404:6800:4000::/36',
  '2607:f8b0:4000::/36',
  '2800:3f0:4000::/36',
  '2a00:1450:4000::/36',
  '2c0f:fb50:4000::/36',
];

/** Yahoo's mail networks (its SPF record's and AS10310's main blocks), from which its image proxy fetches. */
export const YAHOO_PROXY_RANGES: readonly string[] = [
  '66.163.160.0/19',
  '66.196.64.0/18',
  '67.195.0.0/16',
  '68.142.192.0/18',
  '68.180.128.0/17',
  '69.147.64.0/18',
  '72.30.0.0/16',
  '74.6.0.0/16',
  '87.248.96.0/19',
  '98.136.0.0/14',
  '106.10.128.0/18',
  '124.108.96.0/19',
  '188.125.64.0/19',
  '209.191.64.0/18',
  '212.82.96.0/19',
  '216.155.192.0/18',
  '217.146.176.0/20',
  '2001:4998::/32',
];

function blockListOf(ranges: readonly string[]): BlockList {
  const list = new BlockList();
  for (const range of ranges) {
    const [address, prefix] = range.split('/') as [string, string];
    list.addSubnet(address, Number(prefix), isIP(address) === 6 ? 'ipv6' : 'ipv4');
  }
  return list;
}

const appleProxies = blockListOf(APPLE_PROXY_RANGES);
const gmailProxies = blockListOf(GMAIL_PROXY_RANGES);
const yahooProxies = blockListOf(YAHOO_PROXY_RANGES);

/** An IPv4 client behind a dual-stack socket shows as ::ffff:a.b.c.d. */
const IPV4_MAPPED = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

/** The address as PostgreSQL's inet takes it, or null for anything that is not one. */
export function clientAddress(ip: string | undefined): string | null {
  if (!ip) return null;
  const address = IPV4_MAPPED.exec(ip)?.[1] ?? ip;
  return isIP(address) === 0 ? null : address;
}

/** Whether the client's address (any form clientAddress takes) is in `proxies`; never for an unknown one. */
function within(proxies: BlockList, ip: string | null): boolean {
  const address = clientAddress(ip ?? undefined);
  if (address === null) return false;
  return proxies.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}

export const isAppleProxy = (ip: string | null): boolean => within(appleProxies, ip);

/** Apple's image proxy announces itself with nothing but this. */
const APPLE_PROXY_AGENT = 'Mozilla/5.0';
const GMAIL_PROXY = /GoogleImageProxy|ggpht\.com/i;
const YAHOO_PROXY = /YahooMailProxy/i;

/** The verdict on one hit from its own evidence; the recording adds the rules over a mail's hits. */
export function classifyHit({ kind, userAgent, clientIp }: HitEvidence): Verdict {
  const agent = userAgent.trim();
  const gmail = GMAIL_PROXY.test(agent);
  const yahoo = YAHOO_PROXY.test(agent);
  if (gmail && within(gmailProxies, clientIp)) return { machine: false, reason: 'gmail-image-proxy' };
  if (yahoo && within(yahooProxies, clientIp)) return { machine: false, reason: 'yahoo-image-proxy' };
  if (kind === 'open' && (agent === APPLE_PROXY_AGENT || isAppleProxy(clientIp))) return { machine: true, reason: 'apple-privacy-proxy' };
  // No mail client or browser sends no agent at all, nor names a mail proxy it does not come from
  // (isbot knows today's proxy agents too; this holds for any other agent that names one).
  if (agent === '' || gmail || yahoo || isbot(agent)) return { machine: true, reason: 'bot-user-agent' };
  return { machine: false, reason: 'person' };
}
