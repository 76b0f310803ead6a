/**
 * A small in-memory stand-in for the templates API (and the campaign create call the list makes),
 * installed as the global fetch.
 */
import type { Template } from '@mailroom/api-client';
import { createFakeFetch, json, page, type RecordedRequest } from '@mailroom/mf-contract/fake-api';

export const MEMBER_EMAIL = 'mia@example.org';

export function template(overrides: Partial<Template> & Pick<Template, 'id' | 'name'>): Template {
  return {
    preview: null,
    updatedAt: '2024-03-04T10:20:30.000Z',
    updatedByEmail: MEMBER_EMAIL,
    design: null,
    html: null,
    plainText: null,
    ...overrides,
  };
}

const summary = ({ id, name, preview, updatedAt, updatedByEmail }: Template) => ({ id, name, preview, updatedAt, updatedByEmail });

export function createFakeApi(init: { templates?: Template[] } = {}) {
  const templates = new Map<number, Template>((init.templates ?? []).map((t) => [t.id, { ...t }]));
  const campaigns = new Map<number, { name: string; templateId?: number }>();
  let nextId = Math.max(0, ...templates.keys()) + 1;
  let nextCampaignId = 1;

  function route({ method, path, query, body }: RecordedRequest): Response {
    if (path === '/api/templates' && method === 'GET') {
      const name = query.get('name')?.toLowerCase();
      const list = [...templates.values()].filter((t) => !name || t.name.toLowerCase().includes(name)).map(summary);
      return json(200, page(list, query));
    }
    if (path === '/api/templates' && method === 'POST') {
      const id = nextId++;
      templates.set(id, template({ id, name: (body as { name: string }).name }));
      return json(201, { id });
    }
    if (path === '/api/campaigns' && method === 'POST') {
      const id = nextCampaignId++;
      campaigns.set(id, body as { name: string; templateId?: number });
      return json(201, { id });
    }
    const match = /^\/api\/templates\/(\d+)(\/replicate)?$/.exec(path);
    const found = match ? templates.get(Number(match[1])) : undefined;
    if (!match || !found) return json(404, { message: 'Template not found' });
    if (match[2] && method === 'POST') {
      const id = nextId++;
      templates.set(id, { ...found, id, name: `${found.name} (copy)`, updatedAt: new Date().toISOString() });
      return json(201, { id });
    }
    if (method === 'GET') return json(200, found);
    if (method === 'PUT') {
      Object.assign(found, body, { updatedAt: new Date().toISOString(), updatedByEmail: MEMBER_EMAIL });
      return json(200, found);
    }
    if (method === 'DELETE') {
      templates.delete(found.id);
      return new Response(null, { status: 204 });
    }
    return json(404, { message: `No fake for ${method} ${path}` });
  }

  return { ...createFakeFetch(route), templates, campaigns };
}

export type FakeApi = ReturnType<typeof createFakeApi>;
