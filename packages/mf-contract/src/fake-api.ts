/**
 * The plumbing of a remote's in-memory fake API for component tests: a `fetch` to install as the global
 * one (the remote's real API client, openapi-fetch, talks to it, so tests exercise the requests the
 * product makes), a record of every request, per-test overrides, and the list page shape of the contract.
 * Each remote supplies the routes of its own part of the API.
 */

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  request: Request;
}

export type FakeRoute = (request: RecordedRequest) => Response | Promise<Response>;
type Override = (request: RecordedRequest) => Response | undefined | Promise<Response | undefined>;

export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** One page of `items` as the API answers lists: `{ items, meta }`, paged by the `page` and `limit` query. */
export function page<T>(items: T[], query: URLSearchParams) {
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

/** The characters the contract's query values may not carry unencoded (OpenAPI's allowReserved: false). */
const RESERVED = /[:/?#[\]@!$&'()*+,;=]/;

/**
 * The API's validator answers 400 to a query value with a reserved character left unencoded, so the
 * fake answers as it does: a client that leaves one unencoded fails in the component tests too.
 */
function unencodedReserved(search: string): string | undefined {
  for (const pair of search.replace(/^\?/, '').split('&')) {
    const [name, value] = pair.split('=');
    if (value !== undefined && RESERVED.test(value)) return name;
  }
  return undefined;
}

export function createFakeFetch(route: FakeRoute) {
  const requests: RecordedRequest[] = [];
  const overrides: { method: string; path: RegExp; handler: Override }[] = [];

  async function fetch(input: RequestInfo | URL, requestInit?: RequestInit): Promise<Response> {
    const request = input instanceof Request ? input : new Request(input, requestInit);
    const url = new URL(request.url);
    const type = request.headers.get('Content-Type') ?? '';
    const body = type.includes('application/json') ? await request.clone().json() : undefined;
    const recorded: RecordedRequest = { method: request.method, path: url.pathname, query: url.searchParams, body, request };
    requests.push(recorded);
    const unencoded = unencodedReserved(url.search);
    if (unencoded !== undefined) {
      return json(400, { message: `Parameter '${unencoded}' must be url encoded. Its value may not contain reserved characters.` });
    }
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
