/**
 * The classification of opens and clicks: first a table of single hits (real agents and addresses),
 * then a table of mails' timelines recorded through record_tracking_hits, which applies the rules
 * over a mail's hits (too soon, scanner bursts, the hidden link), flush by flush as API processes do.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/db.js';
import { BURST_MS, classifyHit, clientAddress, TOO_SOON_MS, type HitEvidence, type Verdict } from './classify.js';
import { trackingRepository } from './repository.js';

const SAFARI_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';
const APPLE_MAIL_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)';
const IPHONE_MAIL = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148';
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const OUTLOOK = 'Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.17328; Pro)';
const GMAIL_PROXY = 'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)';
const YAHOO_PROXY = 'YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html';

describe('classifyHit', () => {
  const cases: [string, HitEvidence, Verdict][] = [
    [
      'Apple MPP: bare agent from 17/8',
      { kind: 'open', userAgent: 'Mozilla/5.0', clientIp: '17.58.101.12' },
      { machine: true, reason: 'apple-privacy-proxy' },
    ],
    [
      'Apple MPP: bare agent from a relay partner',
      { kind: 'open', userAgent: 'Mozilla/5.0', clientIp: '172.226.5.18' },
      { machine: true, reason: 'apple-privacy-proxy' },
    ],
    [
      'Apple MPP over IPv6 (Akamai relay)',
      { kind: 'open', userAgent: IPHONE_MAIL, clientIp: '2a02:26f7:b3c0:4000::1' },
      { machine: true, reason: 'apple-privacy-proxy' },
    ],
    [
      'Apple MPP seen as IPv4-mapped IPv6',
      { kind: 'open', userAgent: APPLE_MAIL_MAC, clientIp: '::ffff:17.142.160.59' },
      { machine: true, reason: 'apple-privacy-proxy' },
    ],
    [
      'the bare agent from elsewhere is still the proxy',
      { kind: 'open', userAgent: 'Mozilla/5.0', clientIp: '198.51.100.20' },
      { machine: true, reason: 'apple-privacy-proxy' },
    ],
    [
      'a person clicking through iCloud Private Relay',
      { kind: 'click', userAgent: SAFARI_MAC, clientIp: '104.28.40.12' },
      { machine: false, reason: 'person' },
    ],
    [
      'Gmail image proxy',
      { kind: 'open', userAgent: GMAIL_PROXY, clientIp: '66.249.84.27' },
      { machine: false, reason: 'gmail-image-proxy' },
    ],
    [
      'Gmail image proxy over IPv6',
      { kind: 'open', userAgent: GMAIL_PROXY, clientIp: '2a00:1450:4013:c00::84' },
      { machine: false, reason: 'gmail-image-proxy' },
    ],
    [
      'Gmail image proxy seen as IPv4-mapped IPv6',
      { kind: 'open', userAgent: GMAIL_PROXY, clientIp: '::ffff:66.102.8.40' },
      { machine: false, reason: 'gmail-image-proxy' },
    ],
    [
      'Yahoo image proxy',
      { kind: 'open', userAgent: YAHOO_PROXY, clientIp: '98.137.27.103' },
      { machine: false, reason: 'yahoo-image-proxy' },
    ],
    [
      'Yahoo image proxy over IPv6',
      { kind: 'open', userAgent: YAHOO_PROXY, clientIp: '2001:4998:44:3507::8000' },
      { machine: false, reason: 'yahoo-image-proxy' },
    ],
    // A proxy's name in an agent is trusted only from that proxy's addresses.
    [
      "curl naming Gmail's proxy",
      { kind: 'open', userAgent: 'curl/8.5.0 GoogleImageProxy', clientIp: '192.0.2.44' },
      { machine: true, reason: 'bot-user-agent' },
    ],
    [
      "Gmail's proxy agent from a cloud host",
      { kind: 'open', userAgent: GMAIL_PROXY, clientIp: '3.120.10.7' },
      { machine: true, reason: 'bot-user-agent' },
    ],
    [
      "Gmail's proxy agent from Yahoo's addresses",
      { kind: 'open', userAgent: GMAIL_PROXY, clientIp: '98.137.27.103' },
      { machine: true, reason: 'bot-user-agent' },
    ],
    [
      "Gmail's proxy agent from Googlebot's crawl range",
      { kind: 'open', userAgent: GMAIL_PROXY, clientIp: '66.249.66.1' },
      { machine: true, reason: 'bot-user-agent' },
    ],
    [
      "a browser's agent naming Gmail's proxy, from a home address",
      { kind: 'open', userAgent: `${CHROME} (via ggpht.com GoogleImageProxy)`, clientIp: '203.0.113.12' },
      { machine: true, reason: 'bot-user-agent' },
    ],
    [
      "Gmail's proxy agent, address unknown",
      { kind: 'open', userAgent: GMAIL_PROXY, clientIp: null },
      { machine: true, reason: 'bot-user-agent' },
    ],
    [
      "Yahoo's proxy agent from Google's addresses",
      { kind: 'open', userAgent: YAHOO_PROXY, clientIp: '66.249.84.27' },
      { machine: true, reason: 'bot-user-agent' },
    ],
    ['Apple Mail without MPP', { kind: 'open', userAgent: APPLE_MAIL_MAC, clientIp: '203.0.113.9' }, { machine: false, reason: 'person' }],
    ['Outlook for Windows', { kind: 'open', userAgent: OUTLOOK, clientIp: '203.0.113.10' }, { machine: false, reason: 'person' }],
    ['Chrome clicking', { kind: 'click', userAgent: CHROME, clientIp: '2001:db8::7' }, { machine: false, reason: 'person' }],
    ['no address known', { kind: 'open', userAgent: CHROME, clientIp: null }, { machine: false, reason: 'person' }],
    [
      'Googlebot',
      { kind: 'click', userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', clientIp: '66.249.66.1' },
      { machine: true, reason: 'bot-user-agent' },
    ],
    [
      'python-requests',
      { kind: 'click', userAgent: 'python-requests/2.31.0', clientIp: '192.0.2.1' },
      { machine: true, reason: 'bot-user-agent' },
    ],
    ['curl', { kind: 'open', userAgent: 'curl/8.5.0', clientIp: '192.0.2.1' }, { machine: true, reason: 'bot-user-agent' }],
    [
      'Barracuda',
      { kind: 'click', userAgent: 'Barracuda Sentinel (EE)', clientIp: '192.0.2.2' },
      { machine: true, reason: 'bot-user-agent' },
    ],
    ['no agent at all', { kind: 'click', userAgent: '', clientIp: '192.0.2.3' }, { machine: true, reason: 'bot-user-agent' }],
  ];
  it.each(cases)('%s', (_, evidence, verdict) => {
    expect(classifyHit(evidence)).toEqual(verdict);
  });

  it('takes addresses as inet does, or none', () => {
    expect(clientAddress('::ffff:10.0.0.1')).toBe('10.0.0.1');
    expect(clientAddress('2001:db8::1')).toBe('2001:db8::1');
    expect(clientAddress('not an address')).toBeNull();
    expect(clientAddress(undefined)).toBeNull();
  });
});

describe("a mail's hits, recorded (record_tracking_hits)", () => {
  let db: TestDatabase;
  /** A mail of two links and one of three (the first SCANNER_BURST_LINKS), each with its hidden link. */
  type Mail = 'two' | 'three';
  type LinkName = 'a' | 'b' | 'c' | 'hidden';
  const campaigns = {} as Record<Mail, { id: number; links: Partial<Record<LinkName, number>> }>;
  const SENT = new Date('2024-06-01T10:00:00Z');

  beforeAll(async () => {
    db = await createTestDatabase();
    for (const [mail, visible] of [
      ['two', ['a', 'b']],
      ['three', ['a', 'b', 'c']],
    ] as const) {
      const id = (await db.pool.query(`INSERT INTO campaigns (name, status) VALUES ($1, 'SENT') RETURNING id`, [`Classified ${mail}`]))
        .rows[0].id as number;
      const names: LinkName[] = [...visible, 'hidden'];
      const { rows } = await db.pool.query<{ id: number }>(
        `INSERT INTO campaign_links (campaign_id, href, position, hidden)
         SELECT $1, 'https://example.org/' || n, k, n = 'hidden' FROM unnest($2::text[]) WITH ORDINALITY AS l(n, k) ORDER BY k
         RETURNING id`,
        [id, names],
      );
      campaigns[mail] = { id, links: Object.fromEntries(names.map((name, k) => [name, rows[k]!.id])) };
    }
  });
  afterAll(() => db?.drop());

  /** A hit `ms` after sending, taken by the API in flush `flush`. */
  interface Hit {
    ms: number;
    link: LinkName | null;
    agent: string;
    ip: string;
    flush: number;
  }
  interface Expected {
    /** Each hit's stored reason, in the order given; null for a person's. */
    reasons: (string | null)[];
    humanOpened: boolean;
    humanClicked: boolean;
    /** The spec's figures, whoever made the hits. */
    opened: boolean;
    clicked: boolean;
  }

  const open = (ms: number, agent: string, ip: string, flush = 0): Hit => ({ ms, link: null, agent, ip, flush });
  const click = (ms: number, link: Hit['link'], agent: string, ip: string, flush = 0): Hit => ({ ms, link, agent, ip, flush });
  const MIN = 60_000;

  const timelines: [string, Hit[], Expected, Mail?][] = [
    [
      'a person opens',
      [open(5 * MIN, APPLE_MAIL_MAC, '203.0.113.7')],
      { reasons: [null], humanOpened: true, humanClicked: false, opened: true, clicked: false },
    ],
    [
      "Apple's proxy on delivery, then the person hours later",
      [open(2_000, 'Mozilla/5.0', '17.58.1.2'), open(120 * MIN, IPHONE_MAIL, '198.51.100.4', 1)],
      { reasons: ['apple-privacy-proxy', null], humanOpened: true, humanClicked: false, opened: true, clicked: false },
    ],
    [
      "Apple's proxy only",
      [open(1_500, 'Mozilla/5.0', '17.58.1.2')],
      { reasons: ['apple-privacy-proxy'], humanOpened: false, humanClicked: false, opened: true, clicked: false },
    ],
    [
      "Gmail's proxy when the person opens",
      [open(30 * MIN, GMAIL_PROXY, '66.249.84.1')],
      { reasons: [null], humanOpened: true, humanClicked: false, opened: true, clicked: false },
    ],
    [
      'a Safe Links-like scanner: every link and the pixel within seconds, over two flushes',
      [
        click(40_000, 'a', CHROME, '40.94.0.1'),
        open(40_600, CHROME, '40.94.0.2'),
        click(41_200, 'b', CHROME, '40.94.0.3', 1),
        click(41_900, 'c', CHROME, '40.94.0.4', 1),
      ],
      {
        reasons: ['scanner-burst', 'scanner-burst', 'scanner-burst', 'scanner-burst'],
        humanOpened: false,
        humanClicked: false,
        opened: true,
        clicked: true,
      },
      'three',
    ],
    [
      'a person clicks both links of a two-link mail 3 s apart, 15 s after sending',
      [click(15_000, 'a', CHROME, '203.0.113.5'), click(18_000, 'b', CHROME, '203.0.113.5', 1)],
      { reasons: [null, null], humanOpened: true, humanClicked: true, opened: true, clicked: true },
    ],
    [
      'a person clicks two of three links 2 s apart',
      [click(30_000, 'a', CHROME, '203.0.113.5'), click(32_000, 'c', CHROME, '203.0.113.5')],
      { reasons: [null, null], humanOpened: true, humanClicked: true, opened: true, clicked: true },
      'three',
    ],
    [
      'a scanner of a two-link mail follows both links and the hidden one',
      [click(25_000, 'a', CHROME, '40.94.0.1'), click(25_400, 'hidden', CHROME, '40.94.0.1'), click(25_800, 'b', CHROME, '40.94.0.1', 1)],
      { reasons: ['hidden-link', 'hidden-link', 'hidden-link'], humanOpened: false, humanClicked: false, opened: true, clicked: true },
    ],
    [
      'a click too soon after sending',
      [click(TOO_SOON_MS - 7_000, 'a', CHROME, '40.94.0.1')],
      { reasons: ['too-soon'], humanOpened: false, humanClicked: false, opened: true, clicked: true },
    ],
    [
      'the hidden link followed after the pixel (another flush), then the person later',
      [
        open(20_000, CHROME, '52.1.1.1'),
        click(20_000 + BURST_MS - 1_000, 'hidden', CHROME, '52.1.1.2', 1),
        open(60 * MIN, OUTLOOK, '203.0.113.8', 2),
      ],
      { reasons: ['hidden-link', 'hidden-link', null], humanOpened: true, humanClicked: false, opened: true, clicked: false },
    ],
    [
      'the hidden link alone is never an open or a click of the spec',
      [click(30_000, 'hidden', 'Mozilla/5.0 (compatible; scanner)', '52.1.1.2')],
      { reasons: ['hidden-link'], humanOpened: false, humanClicked: false, opened: false, clicked: false },
    ],
    [
      'a bot clicks',
      [click(10 * MIN, 'a', 'python-requests/2.31.0', '192.0.2.1')],
      { reasons: ['bot-user-agent'], humanOpened: false, humanClicked: false, opened: true, clicked: true },
    ],
    [
      'a person clicks both links, a minute apart',
      [click(5 * MIN, 'a', CHROME, '203.0.113.5'), click(6 * MIN, 'b', CHROME, '203.0.113.5', 1)],
      { reasons: [null, null], humanOpened: true, humanClicked: true, opened: true, clicked: true },
    ],
  ];

  it.each(timelines)('%s', async (_, hits, expected, mail = 'two') => {
    const { id: campaignId, links: linkIds } = campaigns[mail];
    const { rows } = await db.pool.query(
      `INSERT INTO campaign_jobs (campaign_id, contact_id, email, status, sent_at)
       VALUES ($1, (SELECT coalesce(max(contact_id), 0) + 1 FROM campaign_jobs), 'x@example.org', 'SENT_SUCCESS', $2) RETURNING id`,
      [campaignId, SENT],
    );
    const jobId = rows[0].id as number;
    const repo = trackingRepository(db.database);
    const flushes = [...new Set(hits.map((hit) => hit.flush))].sort();
    for (const flush of flushes) {
      await repo.recordHits(
        hits
          .filter((hit) => hit.flush === flush)
          .map((hit) => {
            const verdict = classifyHit({ kind: hit.link ? 'click' : 'open', userAgent: hit.agent, clientIp: hit.ip });
            return {
              jobId,
              linkId: hit.link && linkIds[hit.link]!,
              userAgent: hit.agent,
              at: new Date(SENT.getTime() + hit.ms),
              clientIp: hit.ip,
              machineReason: verdict.machine ? verdict.reason : null,
            };
          }),
      );
    }
    const events = await db.pool.query<{ machine_reason: string | null; machine: boolean; since_sent_ms: string; client_ip: string }>(
      'SELECT machine, machine_reason, since_sent_ms, host(client_ip) AS client_ip FROM tracking_events WHERE job_id = $1 ORDER BY created_at, id',
      [jobId],
    );
    const ordered = [...hits].sort((a, b) => a.ms - b.ms);
    expect(events.rows.map((e) => e.machine_reason)).toEqual(ordered.map((hit) => expected.reasons[hits.indexOf(hit)]));
    expect(events.rows.map((e) => e.machine)).toEqual(events.rows.map((e) => e.machine_reason !== null));
    // The evidence is kept with the verdict.
    expect(events.rows.map((e) => [Number(e.since_sent_ms), e.client_ip])).toEqual(ordered.map((hit) => [hit.ms, hit.ip]));
    const job = (
      await db.pool.query(
        `SELECT opened_at IS NOT NULL AS opened, clicked_at IS NOT NULL AS clicked, human_opened_at IS NOT NULL AS "humanOpened",
                human_clicked_at IS NOT NULL AS "humanClicked" FROM campaign_jobs WHERE id = $1`,
        [jobId],
      )
    ).rows[0];
    const { reasons: _reasons, ...flags } = expected;
    expect(job).toEqual(flags);
  });

  it.each(['two', 'three'] as const)('never counts the hidden link as a click of the spec (%s links)', async (mail) => {
    const { id: campaignId, links } = campaigns[mail];
    const { rows } = await db.pool.query('SELECT clicks, unique_clicks FROM campaign_links WHERE id = $1', [links.hidden]);
    expect(rows[0]).toEqual({ clicks: 0, unique_clicks: 0 });
    const counted = await db.pool.query(
      `SELECT c.unique_opens, c.unique_clicks,
              (SELECT count(*)::int FROM campaign_jobs WHERE campaign_id = c.id AND opened_at IS NOT NULL) AS opened,
              (SELECT count(*)::int FROM campaign_jobs WHERE campaign_id = c.id AND clicked_at IS NOT NULL) AS clicked
         FROM campaigns c WHERE c.id = $1`,
      [campaignId],
    );
    const c = counted.rows[0];
    expect([c.unique_opens, c.unique_clicks]).toEqual([c.opened, c.clicked]);
  });
});
