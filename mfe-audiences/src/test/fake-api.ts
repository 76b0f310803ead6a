/**
 * A small in-memory stand-in for the audiences API, installed as the global fetch: the remote's real
 * API client (openapi-fetch) talks to it, so tests exercise the same requests the product makes.
 */
import type { Audience, Contact } from '@mailroom/api-client';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  request: Request;
}

type Override = (request: RecordedRequest) => Response | Promise<Response> | undefined;

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

export function contact(id: number, email: string, data: Record<string, string> = {}, errorMessage: string | null = null): Contact {
  return { id, email, data, errorMessage };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function page<T>(items: T[], query: URLSearchParams) {
  const currentPage = Number(query.get('page') ?? 1);
  const itemsPerPage = Number(query.get('limit') ?? 10);
  const slice = items.slice((currentPage - 1) * itemsPerPage, currentPage * itemsPerPage);
  return {
    items: slice,
    meta: {
      currentPage,
      itemCount: slice.length,
      itemsPerPage,
      totalItems: items.length,
      totalPages: Math.ceil(items.length / itemsPerPage),
    },
  };
}

export function createFakeApi(init: { audiences?: Audience[]; contacts?: Record<number, Contact[]> } = {}) {
  const audiences = new Map<number, Audience>((init.audiences ?? []).map((a) => [a.id, { ...a }]));
  const contacts = new Map<number, Contact[]>(Object.entries(init.contacts ?? {}).map(([id, list]) => [Number(id), list]));
  const requests: RecordedRequest[] = [];
  const overrides: { method: string; path: RegExp; handler: Override }[] = [];
  let nextId = Math.max(0, ...audiences.keys()) + 1;

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
    const match = /^\/api\/audiences\/(\d+)(\/.*)?$/.exec(path);
    const found = match ? audiences.get(Number(match[1])) : undefined;
    if (!match || !found) return json(404, { message: 'Audience not found' });
    const rest = match[2] ?? '';
    if (rest === '' && method === 'GET') return json(200, found);
    if (rest === '' && method === 'PUT') {
      found.name = (body as { name: string }).name;
      return json(200, found);
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
    if (rest === '/download' && method === 'POST') {
      return new Response('email\njane@example.org\n', {
        status: 200,
        headers: { 'Content-Type': 'text/csv', 'Content-Disposition': `attachment; filename="${found.name}.csv"` },
      });
    }
    if (rest === '/import/file' && method === 'POST') {
      found.isImporting = true;
      found.source = query.get('type') === 'text' ? 'TEXT' : 'CSV';
      return json(202, { message: 'Import queued' });
    }
    return json(404, { message: `No fake for ${method} ${path}` });
  }

  async function fetch(input: RequestInfo | URL, requestInit?: RequestInit): Promise<Response> {
    const request = input instanceof Request ? input : new Request(input, requestInit);
    const url = new URL(request.url);
    const type = request.headers.get('Content-Type') ?? '';
    const body = type.includes('application/json') ? await request.clone().json() : undefined;
    const recorded: RecordedRequest = { method: request.method, path: url.pathname, query: url.searchParams, body, request };
    requests.push(recorded);
    for (const override of overrides) {
      if (override.method === request.method && override.path.test(url.pathname)) {
        const response = await override.handler(recorded);
        if (response) return response;
      }
    }
    return route(recorded);
  }

  return {
    fetch,
    audiences,
    contacts,
    requests,
    /** Answers matching requests with `handler` first (undefined falls through to the fake). */
    on(method: string, path: RegExp, handler: Override) {
      overrides.push({ method, path, handler });
    },
    /** The requests made to `method path`, in order. */
    calls(method: string, path: string) {
      return requests.filter((r) => r.method === method && r.path === path);
    },
    json,
  };
}

export type FakeApi = ReturnType<typeof createFakeApi>;
