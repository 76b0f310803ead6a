/**
 * An in-memory stand-in for the API calls the campaigns remote makes (campaigns, and the audiences,
 * contacts and templates its pickers and preview read), installed as the global fetch.
 */
import type {
  AbTest,
  AbTestInput,
  Audience,
  Campaign,
  Contact,
  Segment,
  SuppressedContacts,
  TemplateSummary,
  ValidationResult,
} from '@mailroom/api-client';
import { createFakeFetch, json, page, type RecordedRequest } from '@mailroom/mf-contract/fake-api';

export type FakeTemplate = TemplateSummary & { html: string };

export function campaign(overrides: Partial<Campaign> & Pick<Campaign, 'id' | 'name'>): Campaign {
  return {
    status: 'DRAFT',
    audienceId: null,
    audienceName: null,
    numberOfContacts: 0,
    contactCount: 0,
    fromName: null,
    fromEmail: null,
    subject: null,
    previewText: null,
    templateId: null,
    template: null,
    html: null,
    deliveryDate: null,
    updatedAt: '2024-05-06T07:08:09.000Z',
    updatedByEmail: 'mia@example.org',
    jobsSent: 0,
    jobsFailed: 0,
    uniqueOpens: 0,
    uniqueClicks: 0,
    humanUniqueOpens: 0,
    humanUniqueClicks: 0,
    errorMessage: null,
    followUp: null,
    segment: null,
    ...overrides,
  };
}

export function audience(overrides: Partial<Audience> & Pick<Audience, 'id' | 'name'>): Audience {
  return {
    headers: ['email'],
    source: 'CSV',
    numberOfContacts: 0,
    numberOfContactsWithErrors: 0,
    isImporting: false,
    importErrorMessage: null,
    createdAt: '2024-03-04T10:20:30.000Z',
    ...overrides,
  };
}

export function template(overrides: Partial<FakeTemplate> & Pick<FakeTemplate, 'id' | 'name'>): FakeTemplate {
  return { preview: null, updatedAt: '2024-04-01T12:00:00.000Z', updatedByEmail: 'mia@example.org', html: '<p>Hello</p>', ...overrides };
}

export function contact(id: number, email: string, data: Record<string, string> = {}, errorMessage: string | null = null): Contact {
  return { id, email, data: { email, ...data }, errorMessage, suppressionReason: null };
}

/** Fills {{tag}} from the contact's data as the server does (missing tags become empty). */
function fill(text: string, found: Contact | undefined): string {
  return text.replace(/\{\{\s*([\w]+)\s*\}\}/g, (_, tag: string) => String(found?.data[tag] ?? ''));
}

export interface FakeApiInit {
  campaigns?: Campaign[];
  audiences?: Audience[];
  contacts?: Record<number, Contact[]>;
  templates?: FakeTemplate[];
  senders?: string[];
  /** Per audience: how many valid contacts are suppressed (none when absent). */
  suppressed?: Record<number, SuppressedContacts>;
  /** Per follow-up: its frozen recipients (contacts of its audience). */
  recipients?: Record<number, Contact[]>;
  /** Per follow-up: how many recipients its original reached since (none when absent). */
  reached?: Record<number, number>;
  /** Audiences' segments (issue 26), with the count each matches now (segmentCounts, by segment id; 0 when absent). */
  segments?: Segment[];
  segmentCounts?: Record<number, number>;
  /** Campaigns' A/B tests (issue 28), by campaign id; none when absent. */
  abTests?: Record<number, AbTest>;
}

export function createFakeApi(init: FakeApiInit = {}) {
  const campaigns = new Map((init.campaigns ?? []).map((c) => [c.id, { ...c }]));
  const audiences = new Map((init.audiences ?? []).map((a) => [a.id, { ...a }]));
  const contacts = new Map(Object.entries(init.contacts ?? {}).map(([id, list]) => [Number(id), list]));
  const templates = new Map((init.templates ?? []).map((t) => [t.id, { ...t }]));
  const senders = init.senders ?? ['news@example.org', 'events@example.org'];
  const recipients = new Map(Object.entries(init.recipients ?? {}).map(([id, list]) => [Number(id), list]));
  let nextCampaignId = Math.max(0, ...campaigns.keys()) + 1;
  const segments = new Map((init.segments ?? []).map((seg) => [seg.id, seg]));
  const abTests = new Map(Object.entries(init.abTests ?? {}).map(([id, test]) => [Number(id), test]));

  const byName = <T extends { name: string }>(items: Iterable<T>, query: URLSearchParams) => {
    const name = query.get('name')?.toLowerCase();
    return [...items].filter((item) => !name || item.name.toLowerCase().includes(name));
  };
  const allContacts = (audienceId: number) => contacts.get(audienceId) ?? [];

  /** What validate-campaign answers: the valid contacts lacking a tag the template, subject or preview text uses. */
  function validate(templateId: number, audienceId: number, texts: string[], campaignId?: number): ValidationResult[] {
    const html = templates.get(templateId)?.html ?? '';
    const tags = [...new Set([html, ...texts].join(' ').match(/\{\{\s*\w+\s*\}\}/g) ?? [])].map((tag) => tag.replace(/[{}\s]/g, ''));
    const followUp = campaignId === undefined ? undefined : recipients.get(campaignId);
    return (followUp ?? allContacts(audienceId))
      .filter((c) => c.errorMessage === null)
      .map((c) => ({ contactId: c.id, email: c.email, missingFields: tags.filter((tag) => !c.data[tag]) }))
      .filter((result) => result.missingFields.length > 0);
  }

  function routes({ method, path, query, body }: RecordedRequest): Response {
    const input = (body ?? {}) as Record<string, unknown>;
    if (path === '/api/campaigns' && method === 'GET') {
      const status = query.get('status');
      const listed = byName(campaigns.values(), query).filter((c) => !status || c.status === status);
      return json(200, { data: page(listed, query) });
    }
    if (path === '/api/campaigns' && method === 'POST') {
      const id = nextCampaignId++;
      campaigns.set(id, campaign({ id, name: input.name as string, templateId: (input.templateId as number | undefined) ?? null }));
      return json(201, { id });
    }
    if (path === '/api/campaigns/authorized-sent-emails' && method === 'GET') return json(200, senders);
    if (path === '/api/campaigns/send-test-email' && method === 'POST') return json(200, { message: 'Test email sent' });
    if (path === '/api/campaigns/test-render-email' && method === 'POST') {
      const found = templates.get(input.templateId as number);
      if (!found) return json(404, { message: 'Template not found' });
      const to = [...contacts.values()].flat().find((c) => c.id === input.contactId);
      return json(200, {
        template: fill(found.html, to),
        subject: fill((input.subject as string | undefined) ?? '', to),
        previewText: fill((input.previewText as string | undefined) ?? '', to),
      });
    }
    if (path === '/api/campaigns/validate-campaign' && method === 'POST') {
      const texts = [input.subject, input.previewText].filter((t): t is string => typeof t === 'string');
      return json(200, validate(input.templateId as number, input.audienceId as number, texts, input.campaignId as number | undefined));
    }

    const campaignMatch = /^\/api\/campaigns\/(\d+)(\/[\w-]+)?$/.exec(path);
    if (campaignMatch) {
      const found = campaigns.get(Number(campaignMatch[1]));
      if (!found) return json(404, { message: 'Campaign not found' });
      const action = campaignMatch[2] ?? '';
      if (action === '' && method === 'GET') return json(200, found);
      if (action === '/ab-test' && method === 'GET') return json(200, { data: abTests.get(found.id) ?? null });
      if (action === '/ab-test' && method === 'PUT') {
        if (found.status !== 'DRAFT') return json(409, { message: 'Only a draft campaign can get or change an A/B test.' });
        const test = abTestOf(input as unknown as AbTestInput, templates);
        abTests.set(found.id, test);
        return json(200, { data: test });
      }
      if (action === '/ab-test' && method === 'DELETE') {
        abTests.delete(found.id);
        return new Response(null, { status: 204 });
      }
      if (action === '' && method === 'PUT') {
        Object.assign(found, input, { updatedAt: new Date().toISOString() });
        if ('templateId' in input) {
          const chosen = input.templateId === null ? undefined : templates.get(input.templateId as number);
          found.template = chosen ? { id: chosen.id, name: chosen.name, html: chosen.html, preview: chosen.preview } : null;
        }
        if ('segmentId' in input) {
          const chosen = input.segmentId === null ? undefined : segments.get(input.segmentId as number);
          if (input.segmentId !== null && (!chosen || chosen.audienceId !== found.audienceId))
            return json(400, { message: 'The segment is not one of the audience.' });
          found.segment = chosen ? { id: chosen.id, name: chosen.name, rule: chosen.rule } : null;
          delete (found as Record<string, unknown>).segmentId;
        }
        if ('audienceId' in input) found.numberOfContacts = audiences.get(input.audienceId as number)?.numberOfContacts ?? 0;
        return json(200, found);
      }
      if (action === '' && method === 'DELETE') {
        campaigns.delete(found.id);
        return new Response(null, { status: 204 });
      }
      if (action === '/send' && method === 'POST') {
        if (found.status !== 'DRAFT') return json(409, { message: 'Only a draft can be sent' });
        found.status = 'SENDING';
        return json(202, { message: 'Sending started' });
      }
      // Scheduling (an addition to the spec), with the server's own refusals.
      if (action === '/schedule' && method === 'POST') {
        if (found.status !== 'DRAFT') return json(409, { message: 'Only a draft campaign can be scheduled.' });
        if (Date.parse(input.at as string) <= Date.now())
          return json(400, { message: 'The scheduled time has passed; choose a time in the future.' });
        Object.assign(found, { status: 'SCHEDULED', scheduledAt: new Date(input.at as string).toISOString(), errorMessage: null });
        return json(200, found);
      }
      if (action === '/unschedule' && method === 'POST') {
        if (found.status !== 'SCHEDULED') return json(409, { message: 'This campaign is not scheduled.' });
        Object.assign(found, { status: 'DRAFT', scheduledAt: null });
        return json(200, found);
      }
      // Send approval (issue 27): the fake keeps the request on the campaign; the requester is the signed-in member.
      if (action === '/approval-request' && method === 'POST') {
        if (found.status !== 'DRAFT') return json(409, { message: 'Only a draft campaign can be sent for approval.' });
        const at = (input.at as string | undefined) ?? null;
        Object.assign(found, {
          status: 'AWAITING_APPROVAL',
          approval: {
            id: found.id,
            state: 'WAITING',
            requestedByEmail: 'mia@example.org',
            requestedAt: new Date().toISOString(),
            at,
            answeredByEmail: null,
            answeredAt: null,
            reason: null,
          },
        });
        return json(200, found);
      }
      if (action === '/approval-request' && method === 'DELETE') {
        if (found.status !== 'AWAITING_APPROVAL') return json(409, { message: 'This campaign is not waiting for approval.' });
        Object.assign(found, { status: 'DRAFT', approval: { ...found.approval, state: 'WITHDRAWN' } });
        return json(200, found);
      }
      if (action === '/approve' && method === 'POST') {
        if (found.status !== 'AWAITING_APPROVAL') return json(409, { message: 'This campaign is not waiting for approval.' });
        const at = found.approval?.at ?? null;
        Object.assign(found, { status: at ? 'SCHEDULED' : 'SENDING', scheduledAt: at, approval: { ...found.approval, state: 'APPROVED' } });
        return json(202, { message: 'Approved: The campaign is being sent.' });
      }
      if (action === '/decline' && method === 'POST') {
        if (found.status !== 'AWAITING_APPROVAL') return json(409, { message: 'This campaign is not waiting for approval.' });
        Object.assign(found, {
          status: 'DRAFT',
          approval: { ...found.approval, state: 'DECLINED', answeredByEmail: 'sam@example.org', reason: input.reason },
        });
        return json(200, found);
      }
      if (action === '/stop' && method === 'POST') {
        if (found.status !== 'SENDING') return json(409, { message: 'Only a campaign that is sending can be stopped.' });
        Object.assign(found, { status: 'ERROR', quotaPausedUntil: null, errorMessage: 'Sending was stopped by mia@example.org.' });
        return json(200, found);
      }
      if (action === '/continue' && method === 'POST') {
        if (found.status !== 'ERROR') return json(409, { message: 'Only a campaign in error can continue' });
        found.status = 'SENDING';
        found.errorMessage = null;
        return json(202, { message: 'Sending continues' });
      }
      if (action === '/replicate' && method === 'POST') {
        const id = nextCampaignId++;
        campaigns.set(id, { ...campaign({ ...found, id, name: `${found.name} (copy)` }), status: 'DRAFT', jobsSent: 0, jobsFailed: 0 });
        return json(201, { id });
      }
      if (action === '/follow-up' && method === 'POST') {
        if (found.status !== 'SENT') return json(409, { message: 'Only a sent campaign can be followed up.' });
        const id = nextCampaignId++;
        const kind = input.recipients as 'NOT_OPENED' | 'NOT_CLICKED';
        const followUp = { campaignId: found.id, campaignName: found.name, recipients: kind, recipientCount: 2 };
        campaigns.set(id, { ...campaign({ ...found, id, name: `${found.name} (follow-up)` }), status: 'DRAFT', jobsSent: 0, followUp });
        return json(201, campaigns.get(id));
      }
      if (action === '/recipients' && method === 'GET') {
        const list = recipients.get(found.id);
        return list ? json(200, page(list, query)) : json(404, { message: 'This campaign is not a follow-up.' });
      }
      if (action === '/reached-recipients' && method === 'GET') {
        if (!found.followUp) return json(404, { message: 'This campaign is not a follow-up.' });
        return json(200, { reachedRecipients: init.reached?.[found.id] ?? 0 });
      }
    }

    if (path === '/api/audiences' && method === 'GET') return json(200, page(byName(audiences.values(), query), query));
    const segmentsMatch = /^\/api\/audiences\/(\d+)\/segments$/.exec(path);
    if (segmentsMatch && method === 'GET') {
      const id = Number(segmentsMatch[1]);
      return json(200, { items: [...segments.values()].filter((seg) => seg.audienceId === id) });
    }
    const segmentMatch = /^\/api\/segments\/(\d+)$/.exec(path);
    if (segmentMatch && method === 'GET') {
      const found = segments.get(Number(segmentMatch[1]));
      return found ? json(200, found) : json(404, { message: 'Segment not found' });
    }
    if (/^\/api\/audiences\/\d+\/segment-count$/.test(path) && method === 'POST') {
      const rule = JSON.stringify((input as { rule: unknown }).rule);
      const found = [...segments.values()].find((seg) => JSON.stringify(seg.rule) === rule);
      return json(200, { count: found ? (init.segmentCounts?.[found.id] ?? 0) : 0 });
    }
    const suppressedMatch = /^\/api\/audiences\/(\d+)\/suppressed-contacts$/.exec(path);
    if (suppressedMatch && method === 'GET') {
      const id = Number(suppressedMatch[1]);
      if (!audiences.has(id)) return json(404, { message: 'Audience not found' });
      return json(200, init.suppressed?.[id] ?? { suppressedContacts: 0, unsubscribed: 0, hardBounced: 0, complained: 0 });
    }
    // The audience's fields: its headers, as TEXT fields.
    const fieldsMatch = /^\/api\/audiences\/(\d+)\/fields$/.exec(path);
    if (fieldsMatch && method === 'GET') {
      const found = audiences.get(Number(fieldsMatch[1]));
      if (!found) return json(404, { message: 'Audience not found' });
      const fields = found.headers
        .filter((key) => key !== 'email')
        .map((key, i) => ({ key, label: key, type: 'TEXT', options: null, required: false, editableByPerson: false, position: i + 1 }));
      return json(200, fields);
    }
    const audienceMatch = /^\/api\/audiences\/(\d+)(\/contacts)?$/.exec(path);
    if (audienceMatch && method === 'GET') {
      const found = audiences.get(Number(audienceMatch[1]));
      if (!found) return json(404, { message: 'Audience not found' });
      if (!audienceMatch[2]) return json(200, found);
      const hasError = query.get('hasError');
      const list = allContacts(found.id).filter((c) => hasError === null || (c.errorMessage !== null) === (hasError === 'true'));
      return json(200, page(list, query));
    }
    if (path === '/api/templates' && method === 'GET') {
      return json(
        200,
        page(
          byName(
            [...templates.values()].map(({ html: _html, ...summary }) => summary),
            query,
          ),
          query,
        ),
      );
    }
    return json(404, { message: `No fake for ${method} ${path}` });
  }

  return { ...createFakeFetch(routes), campaigns, audiences, contacts, templates, segments, abTests };
}

/** A saved draft's A/B test as the API answers it. */
export function abTestOf(input: AbTestInput, templates: Map<number, FakeTemplate> = new Map()): AbTest {
  return {
    ...input,
    variants: input.variants.map((v) => ({
      subject: v.subject ?? null,
      previewText: v.previewText ?? null,
      fromName: v.fromName ?? null,
      templateId: v.templateId ?? null,
      templateName: v.templateId ? (templates.get(v.templateId)?.name ?? null) : null,
    })),
    phase: 'DRAFT',
    startedAt: null,
    endsAt: null,
    winner: null,
    decidedAt: null,
    decidedBy: null,
    verdict: null,
    figures: [],
    current: null,
  };
}

export type FakeApi = ReturnType<typeof createFakeApi>;

/** A promise the test resolves when it wants, to hold a request in flight. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
