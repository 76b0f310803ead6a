/**
 * A small in-memory stand-in for the audiences API, installed as the global fetch: the remote's real
 * API client (openapi-fetch) talks to it, so tests exercise the same requests the product makes.
 */
import type { Audience, AudienceField, CampaignSummary, Contact, Person, Segment, Suppression } from '@mailroom/api-client';
import type { SegmentRule } from '@mailroom/api-client/segments';
import type { components } from '@mailroom/api-client/schema';
import { createFakeFetch, json, page, type RecordedRequest } from '@mailroom/mf-contract/fake-api';

export function audience(overrides: Partial<Audience> & Pick<Audience, 'id' | 'name'>): Audience {
  return {
    headers: [],
    source: null,
    numberOfContacts: 0,
    numberOfContactsWithErrors: 0,
    isImporting: false,
    importErrorMessage: null,
    createdAt: '2024-03-04T10:20:30.000Z',
    ...overrides,
  };
}

export function contact(
  id: number,
  email: string,
  data: Record<string, string> = {},
  errorMessage: string | null = null,
  suppressionReason: Contact['suppressionReason'] = null,
): Contact {
  return { id, email, data, errorMessage, suppressionReason };
}

export function suppression(id: number, email: string, reason: Suppression['reason'], campaignName: string | null = null): Suppression {
  return {
    id,
    email,
    reason,
    createdAt: new Date(2024, 4, id).toISOString(),
    campaignId: campaignName ? 9 : null,
    campaignName,
    addedBy: null,
  };
}

type ImportMappingView = components['schemas']['ImportMappingView'];

/** A person held nowhere, as the API answers one: overrides add what is held. */
export function person(email: string, overrides: Partial<Person> = {}): Person {
  return {
    email,
    erasedAt: null,
    audiences: [],
    mails: [],
    totalMails: 0,
    opens: { people: 0, machines: 0 },
    clicks: { people: 0, machines: 0 },
    suppression: null,
    consent: [],
    ...overrides,
  };
}

export function createFakeApi(
  init: {
    audiences?: Audience[];
    contacts?: Record<number, Contact[]>;
    suppressions?: Suppression[];
    people?: Person[];
    fields?: Record<number, AudienceField[]>;
    /** Templates by the field key they use: a removal without confirm=true is refused with them. */
    templatesUsing?: Record<string, { id: number; name: string }[]>;
    importMappings?: Record<number, ImportMappingView>;
    segments?: Segment[];
    /** Campaigns of the list (GET /api/campaigns), for the segment builder's campaign conditions. */
    campaigns?: Pick<CampaignSummary, 'id' | 'name' | 'audienceId' | 'status'>[];
    /** The count a rule gets (the default: 100 less 10 a condition, so each change of the rule moves it). */
    countRule?: (rule: SegmentRule) => number;
  } = {},
) {
  const fields = new Map<number, AudienceField[]>(Object.entries(init.fields ?? {}).map(([id, list]) => [Number(id), [...list]]));
  // Keyed by the address lower-cased: the API folds it (address_key) the same way for these addresses.
  const people = new Map((init.people ?? []).map((p) => [p.email.toLowerCase(), { ...p }]));
  const suppressions = [...(init.suppressions ?? [])].sort((a, b) => b.id - a.id);
  const audiences = new Map<number, Audience>((init.audiences ?? []).map((a) => [a.id, { ...a }]));
  const contacts = new Map<number, Contact[]>(Object.entries(init.contacts ?? {}).map(([id, list]) => [Number(id), list]));
  let nextId = Math.max(0, ...audiences.keys()) + 1;
  const segments = new Map<number, Segment>((init.segments ?? []).map((seg) => [seg.id, { ...seg }]));
  let nextSegmentId = Math.max(0, ...segments.keys()) + 1;
  const conditions = (rule: SegmentRule): number => rule.rules.reduce((n, part) => n + ('rules' in part ? part.rules.length : 1), 0);
  const countRule = init.countRule ?? ((rule: SegmentRule) => Math.max(0, 100 - 10 * conditions(rule)));
  const segmentTaken = (audienceId: number, name: string, except?: number) =>
    [...segments.values()].some(
      (seg) => seg.audienceId === audienceId && seg.id !== except && seg.name.toLowerCase() === name.toLowerCase(),
    );

  function route(req: RecordedRequest): Response {
    const { method, path, query, body } = req;
    if (path === '/api/audiences' && method === 'GET') {
      const name = query.get('name')?.toLowerCase();
      const list = [...audiences.values()].filter((a) => !name || a.name.toLowerCase().includes(name));
      return json(200, page(list, query));
    }
    if (path === '/api/audiences' && method === 'POST') {
      const id = nextId++;
      audiences.set(id, audience({ id, name: (body as { name: string }).name }));
      return json(201, { id });
    }
    if (path === '/api/people' && method === 'GET') {
      const email = query.get('email')!.trim().toLowerCase();
      return json(200, people.get(email) ?? person(email));
    }
    if (path === '/api/people/export' && method === 'GET') {
      const email = query.get('email')!.trim().toLowerCase();
      return new Response(JSON.stringify({ email, ...people.get(email) }), {
        status: 200,
        headers: { 'Content-Type': 'application/json', 'Content-Disposition': 'attachment; filename="person-2024-05-06.json"' },
      });
    }
    if (path === '/api/people/erase' && method === 'POST') {
      const email = (body as { email: string }).email.trim().toLowerCase();
      const held = people.get(email) ?? person(email);
      const erasedAt = held.erasedAt ?? '2024-05-06T07:08:09.000Z';
      people.set(email, person(email, { erasedAt }));
      return json(200, {
        erasedKey: `erased:${'0'.repeat(64)}@${email.split('@')[1]}`,
        erasedAt,
        contacts: held.audiences.length,
        audiences: new Set(held.audiences.map((a) => a.audienceId)).size,
        mails: held.totalMails,
        hits: 0,
        activityEntries: 0,
      });
    }
    if (path === '/api/suppressions' && method === 'GET') {
      const email = query.get('email')?.toLowerCase();
      const reason = query.get('reason');
      const limit = Number(query.get('limit') ?? 50);
      const after = query.get('after');
      const list = suppressions.filter((s) => (!email || s.email.includes(email)) && (!reason || s.reason === reason));
      const from = after === null ? 0 : list.findIndex((s) => s.id < Number(after));
      const items = from < 0 ? [] : list.slice(from, from + limit);
      return json(200, {
        items,
        totalItems: list.length,
        hasNewer: from > 0,
        hasOlder: from + limit < list.length,
        offset: Math.max(0, from),
      });
    }
    if (path === '/api/suppressions' && method === 'POST') {
      const lines = (body as { text: string }).text.split('\n').filter((line) => line.trim() !== '');
      const invalid = lines.flatMap((line, i) =>
        line.includes('@') ? [] : [{ line: i + 1, value: line, message: 'Invalid email address' }],
      );
      return json(200, { added: lines.length - invalid.length, alreadySuppressed: 0, invalidLines: invalid.length, invalid });
    }
    const removal = /^\/api\/suppressions\/(\d+)$/.exec(path);
    if (removal && method === 'DELETE') {
      const at = suppressions.findIndex((s) => s.id === Number(removal[1]));
      if (at < 0) return json(404, { message: 'Not found' });
      if (suppressions[at]!.reason === 'COMPLAINT' && query.get('confirmComplaint') !== 'true')
        return json(409, { message: 'Confirm again' });
      if (suppressions[at]!.reason === 'UNSUBSCRIBE' && query.get('confirmUnsubscribe') !== 'true')
        return json(409, { message: 'This person unsubscribed' });
      suppressions.splice(at, 1);
      return new Response(null, { status: 204 });
    }
    if (path === '/api/campaigns' && method === 'GET') {
      const items = (init.campaigns ?? []).map((c) => ({ ...c, audienceName: null }));
      return json(200, { data: page(items, query) });
    }
    const segmentPath = /^\/api\/segments\/(\d+)$/.exec(path);
    if (segmentPath) {
      const found = segments.get(Number(segmentPath[1]));
      if (!found) return json(404, { message: 'Segment not found' });
      if (method === 'GET') return json(200, found);
      if (method === 'PUT') {
        const input = body as { name: string; rule: SegmentRule };
        if (segmentTaken(found.audienceId, input.name, found.id)) return json(409, { message: `A segment named '${input.name}' exists.` });
        Object.assign(found, input, { updatedAt: '2024-06-01T10:00:00.000Z' });
        return json(200, found);
      }
      if (method === 'DELETE') {
        segments.delete(found.id);
        return new Response(null, { status: 204 });
      }
    }
    const match = /^\/api\/audiences\/(\d+)(\/.*)?$/.exec(path);
    const found = match ? audiences.get(Number(match[1])) : undefined;
    if (!match || !found) return json(404, { message: 'Audience not found' });
    const rest = match[2] ?? '';
    if (rest === '' && method === 'GET') return json(200, found);
    if (rest === '' && method === 'PUT') {
      found.name = (body as { name: string }).name;
      return json(200, found);
    }
    if (rest === '' && method === 'PATCH') {
      const publicName = (body as { publicName: string | null }).publicName;
      if (publicName !== null && publicName.length > 100) return json(400, { message: 'A public name is at most 100 characters.' });
      found.publicName = publicName;
      return json(200, found);
    }
    if (rest === '/forms' && method === 'GET') return json(200, { items: [] });
    if (rest === '/segments' && method === 'GET') {
      const items = [...segments.values()].filter((seg) => seg.audienceId === found.id).sort((a, b) => a.name.localeCompare(b.name));
      return json(200, { items });
    }
    if (rest === '/segments' && method === 'POST') {
      const input = body as { name: string; rule: SegmentRule };
      if (segmentTaken(found.id, input.name)) return json(409, { message: `A segment named '${input.name}' exists.` });
      const at = '2024-06-01T09:00:00.000Z';
      const created: Segment = { id: nextSegmentId++, audienceId: found.id, ...input, createdAt: at, updatedAt: at };
      segments.set(created.id, created);
      return json(201, created);
    }
    if (rest === '/segment-count' && method === 'POST') {
      const { rule } = body as { rule: SegmentRule };
      const count = countRule(rule);
      const sample = query.get('sample') === 'true' ? (contacts.get(found.id) ?? []).slice(0, 10) : undefined;
      return json(200, { count, ...(sample ? { sample } : {}) });
    }
    if (rest === '' && method === 'DELETE') {
      audiences.delete(found.id);
      return json(202, { message: 'Deletion queued' });
    }
    if (rest === '/contacts' && method === 'GET') {
      const email = query.get('email')?.toLowerCase();
      const hasError = query.get('hasError');
      const list = (contacts.get(found.id) ?? []).filter(
        (c) =>
          (!email || c.email.toLowerCase().includes(email)) && (hasError === null || (c.errorMessage !== null) === (hasError === 'true')),
      );
      return json(200, page(list, query));
    }
    if (rest === '/fields' && method === 'GET') return json(200, fields.get(found.id) ?? []);
    if (rest === '/fields' && method === 'POST') {
      const list = fields.get(found.id) ?? [];
      const input = body as Omit<AudienceField, 'position' | 'options' | 'required' | 'editableByPerson'> & Partial<AudienceField>;
      if (list.some((f) => f.key.toLowerCase() === input.key.toLowerCase()))
        return json(409, { message: `The audience already has a field '${input.key}'.` });
      const field: AudienceField = {
        options: null,
        required: false,
        editableByPerson: false,
        ...input,
        position: list.length + 1,
      };
      fields.set(found.id, [...list, field]);
      found.headers = [...list, field].map((f) => f.key);
      return json(201, field);
    }
    const fieldPath = /^\/fields\/([^/]+)$/.exec(rest);
    if (fieldPath) {
      const key = decodeURIComponent(fieldPath[1]!);
      const list = fields.get(found.id) ?? [];
      const at = list.findIndex((f) => f.key === key);
      if (at < 0) return json(404, { message: 'Field not found' });
      if (method === 'PATCH') {
        list[at] = { ...list[at]!, ...(body as Partial<AudienceField>) };
        return json(200, list[at]);
      }
      if (method === 'DELETE') {
        const templates = init.templatesUsing?.[key] ?? [];
        if (templates.length > 0 && query.get('confirm') !== 'true')
          return json(409, { message: `The merge tag {{${key}}} is used by templates.`, templates });
        list.splice(at, 1);
        found.headers = list.map((f) => f.key);
        return json(200, { message: 'Removed' });
      }
    }
    if (rest === '/download' && method === 'POST') {
      return new Response('email\njane@example.org\n', {
        status: 200,
        headers: { 'Content-Type': 'text/csv', 'Content-Disposition': `attachment; filename="${found.name}.csv"` },
      });
    }
    if (rest === '/import-mapping' && method === 'GET') {
      return json(200, init.importMappings?.[found.id] ?? { fields: [], remembered: null });
    }
    if (rest === '/import/file' && method === 'POST') {
      found.isImporting = true;
      found.source = query.get('type') === 'text' ? 'TEXT' : 'CSV';
      return json(202, { message: 'Import queued' });
    }
    return json(404, { message: `No fake for ${method} ${path}` });
  }

  return { ...createFakeFetch(route), audiences, contacts, suppressions, fields, people, segments };
}

export type FakeApi = ReturnType<typeof createFakeApi>;
