/**
 * A small in-memory stand-in for the parts of the API the report uses, installed as the global fetch:
 * the remote's real API client talks to it, so tests exercise the same requests the product makes. It
 * filters and pages email performance the way the server does, NOT_SENT included.
 */
import type {
  AbTest,
  AbTestVariantClicks,
  Campaign,
  CampaignLink,
  EmailPerformanceRow,
  ReportDomain,
  ReportOverview,
  ReportTimeline,
} from '@mailroom/api-client';
import { createFakeFetch, json, page, type RecordedRequest } from '@mailroom/mf-contract/fake-api';

export function campaign(overrides: Partial<Campaign> & Pick<Campaign, 'id' | 'name'>): Campaign {
  return {
    status: 'SENT',
    audienceId: 3,
    audienceName: 'Newsletter readers',
    numberOfContacts: 12,
    contactCount: 12,
    fromName: 'Mia Member',
    fromEmail: 'news@example.org',
    subject: 'Spring news',
    previewText: 'What is new this spring',
    templateId: 4,
    template: null,
    html: '<!DOCTYPE html><html><body><p>Hello</p></body></html>',
    deliveryDate: '2024-04-02T09:15:30.000Z',
    updatedAt: '2024-04-02T09:15:30.000Z',
    updatedByEmail: 'mia@example.org',
    jobsSent: 10,
    jobsFailed: 1,
    uniqueOpens: 4,
    uniqueClicks: 2,
    humanUniqueOpens: 3,
    humanUniqueClicks: 1,
    errorMessage: null,
    followUp: null,
    ...overrides,
  };
}

export function row(overrides: Partial<EmailPerformanceRow> & Pick<EmailPerformanceRow, 'contactId'>): EmailPerformanceRow {
  return {
    id: overrides.contactId + 1000,
    email: `contact${overrides.contactId}@example.org`,
    status: 'SENT_SUCCESS',
    clicked: false,
    opened: false,
    bounceType: null,
    bounceMessage: null,
    bounceTime: null,
    complaintType: null,
    complaintTime: null,
    errorMessage: null,
    suppressionReason: null,
    // A person's, unless a test says only machines opened or clicked.
    humanOpened: overrides.opened ?? false,
    humanClicked: overrides.clicked ?? false,
    openEvidence: [],
    clickEvidence: [],
    ...overrides,
  };
}

export const link = (
  id: number,
  href: string,
  clicks: number,
  uniqueClicks: number,
  humanClicks = 0,
  humanUniqueClicks = 0,
): CampaignLink => ({
  id,
  href,
  clicks,
  uniqueClicks,
  humanClicks,
  humanUniqueClicks,
});

export interface Stats {
  jobsSent: number;
  jobsFailed: number;
  totalContactsCount: number;
  jobsUnknown?: number;
  jobsUnconfirmed?: number;
  unconfirmedResendAfterMinutes?: number;
}

/** The Overview's figures of a campaign (an addition to the spec); by default one never sent. */
export function figures(overrides: Partial<ReportOverview> = {}): ReportOverview {
  return {
    sent: 0,
    delivered: 0,
    bouncedHard: 0,
    bouncedSoft: 0,
    complaints: 0,
    unsubscribed: 0,
    openedHuman: 0,
    openedMachine: 0,
    clickedHuman: 0,
    clickedMachine: 0,
    failed: 0,
    unknown: 0,
    totalContactsCount: 0,
    sendingStartedAt: null,
    ...overrides,
  };
}

export function domain(overrides: Partial<ReportDomain> & Pick<ReportDomain, 'domain' | 'sent'>): ReportDomain {
  return {
    delivered: overrides.sent,
    bouncedHard: 0,
    bouncedSoft: 0,
    complaints: 0,
    openedHuman: 0,
    clickedHuman: 0,
    flagged: false,
    limitWaits: 0,
    deferrals: 0,
    sesThrottles: 0,
    ...overrides,
  };
}

const NOT_SENT_TIMELINE: ReportTimeline = { sendingStartedAt: null, buckets: [] };

const NO_UNKNOWN = { jobsUnknown: 0, jobsUnconfirmed: 0, unconfirmedResendAfterMinutes: 60 };

export function createFakeApi(
  init: {
    campaigns?: Campaign[];
    stats?: Record<number, Stats>;
    rows?: Record<number, EmailPerformanceRow[]>;
    links?: Record<number, CampaignLink[]>;
    figures?: Record<number, ReportOverview>;
    timelines?: Record<number, ReportTimeline>;
    domains?: Record<number, ReportDomain[]>;
    /** Campaigns' A/B tests (issue 28); none when absent. */
    abTests?: Record<number, AbTest>;
    /** Each A/B test variant's click map, by campaign then variant (issue 28). */
    variantClicks?: Record<number, AbTestVariantClicks[]>;
  } = {},
) {
  const campaigns = new Map<number, Campaign>((init.campaigns ?? []).map((c) => [c.id, { ...c }]));
  const stats = new Map<number, Stats>(Object.entries(init.stats ?? {}).map(([id, s]) => [Number(id), { ...s }]));
  const rows = new Map<number, EmailPerformanceRow[]>(Object.entries(init.rows ?? {}).map(([id, list]) => [Number(id), list]));
  const links = new Map<number, CampaignLink[]>(Object.entries(init.links ?? {}).map(([id, list]) => [Number(id), list]));
  const byId = <T>(record: Record<number, T> | undefined) =>
    new Map<number, T>(Object.entries(record ?? {}).map(([id, v]) => [Number(id), v]));
  const overviews = byId(init.figures);
  const timelines = byId(init.timelines);
  const domains = byId(init.domains);
  const abTests = byId(init.abTests);
  const variantClicks = byId(init.variantClicks);

  function filtered(id: number, query: URLSearchParams) {
    const email = query.get('email')?.toLowerCase();
    const yes = (name: string) => (query.has(name) ? query.get(name) === 'true' : undefined);
    const clicked = yes('clicked');
    const opened = yes('opened');
    const humanClicked = yes('humanClicked');
    const humanOpened = yes('humanOpened');
    return (rows.get(id) ?? []).filter(
      (r) =>
        (!email || (r.email ?? '').toLowerCase().includes(email)) &&
        (!query.has('sendStatus') || r.status === query.get('sendStatus')) &&
        (!query.has('bounceStatus') || r.bounceType === query.get('bounceStatus')) &&
        (clicked === undefined || r.clicked === clicked) &&
        (opened === undefined || r.opened === opened) &&
        (humanClicked === undefined || r.humanClicked === humanClicked) &&
        (humanOpened === undefined || r.humanOpened === humanOpened),
    );
  }

  function route({ method, path, query, body }: RecordedRequest): Response {
    const campaignMatch = /^\/api\/campaigns\/(\d+)$/.exec(path);
    if (campaignMatch && method === 'GET') {
      const found = campaigns.get(Number(campaignMatch[1]));
      return found ? json(200, found) : json(404, { message: 'Campaign not found' });
    }
    const variantMatch = /^\/api\/campaigns\/(\d+)\/ab-test\/variants\/(\d+)\/clicks$/.exec(path);
    if (variantMatch && method === 'GET') {
      const map = variantClicks.get(Number(variantMatch[1]))?.[Number(variantMatch[2])];
      return map ? json(200, map) : json(404, { message: 'The test has no such variant.' });
    }
    const abTestMatch = /^\/api\/campaigns\/(\d+)\/ab-test(\/winner)?$/.exec(path);
    if (abTestMatch) {
      const id = Number(abTestMatch[1]);
      if (!campaigns.has(id)) return json(404, { message: 'Campaign not found' });
      const test = abTests.get(id) ?? null;
      if (!abTestMatch[2] && method === 'GET') return json(200, { data: test });
      if (abTestMatch[2] && method === 'POST') {
        if (test?.phase !== 'TESTING') return json(409, { message: 'The A/B test is not in its test phase.' });
        const { variant } = body as { variant: number };
        const decided: AbTest = {
          ...test,
          phase: 'DECIDED',
          winner: variant,
          decidedBy: 'MEMBER',
          decidedAt: '2024-06-02T10:00:00.000Z',
          verdict: {
            rule: 'MEMBER',
            confidence: test.current?.confidence ?? null,
            leader: test.current?.leader ?? null,
            figures: test.figures,
          },
        };
        abTests.set(id, decided);
        return json(200, { data: decided });
      }
    }
    const match = /^\/api\/reports\/(\d+)\/([a-z-]+)(?:\/(\d+))?$/.exec(path);
    const found = match ? campaigns.get(Number(match[1])) : undefined;
    if (!match || !found) return json(404, { message: 'Campaign not found' });
    const [, , operation, subId] = match;
    const id = found.id;
    if (operation === 'overview-stat' && method === 'GET') {
      return json(200, { campaign: found, ...NO_UNKNOWN, ...(stats.get(id) ?? { jobsSent: 0, jobsFailed: 0, totalContactsCount: 0 }) });
    }
    if (operation === 'overview' && method === 'GET') return json(200, overviews.get(id) ?? figures());
    if (operation === 'timeline' && method === 'GET') return json(200, timelines.get(id) ?? NOT_SENT_TIMELINE);
    if (operation === 'domains' && method === 'GET') return json(200, { domains: domains.get(id) ?? [] });
    if (operation === 'email-performance' && method === 'GET') return json(200, page(filtered(id, query), query));
    if (operation === 'export-email-performance' && method === 'GET') {
      return new Response(new Blob(['xlsx bytes']), {
        status: 200,
        headers: {
          'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          'Content-Disposition': `attachment; filename="email-performance-${id}.xlsx"`,
        },
      });
    }
    if (operation === 'clicks' && method === 'GET') return json(200, links.get(id) ?? []);
    if (operation === 'resend-unconfirmed' && method === 'POST') {
      const now = stats.get(id);
      if (now) stats.set(id, { ...now, jobsUnconfirmed: 0 });
      const queued = now?.jobsUnconfirmed ?? 0;
      return json(202, { message: `${queued} unconfirmed emails queued`, queued, skipped: 0 });
    }
    // The bulk actions answer their figures as the server does: queued, and NOT_SENT contacts skipped as suppressed.
    const all = rows.get(id) ?? [];
    if (operation === 'retry-all-failed-jobs' && method === 'POST') {
      const queued = all.filter((r) => r.status === 'FAILED').length;
      return json(202, { message: queued > 0 ? `${queued} failed queued` : 'Nothing to retry', queued, skipped: 0 });
    }
    if (operation === 'send-to-not-sent' && method === 'POST') {
      const notSent = all.filter((r) => r.status === 'NOT_SENT');
      const skipped = notSent.filter((r) => r.suppressionReason !== null).length;
      const queued = notSent.length - skipped;
      return json(202, { message: `${queued} NOT_SENT queued, ${skipped} suppressed skipped`, queued, skipped });
    }
    if (operation === 'retry-job' && method === 'POST' && subId) return json(202, { message: `Job ${subId} queued for retry` });
    if (operation === 'send-to-contact' && method === 'POST' && subId) return json(202, { message: `Contact ${subId} queued for sending` });
    return json(404, { message: `No fake for ${method} ${path}` });
  }

  return { ...createFakeFetch(route), campaigns, stats, rows, links, overviews, timelines, domains, abTests };
}

export type FakeApi = ReturnType<typeof createFakeApi>;
