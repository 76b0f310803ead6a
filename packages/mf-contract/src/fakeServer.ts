/**
 * The machinery of a remote's fake API in component tests: a fetch that records every request and
 * answers it from the remote's own in-memory routes, with per-test overrides. Installed as the
 * global fetch, the remote's real API client (openapi-fetch) talks to it, so tests exercise the
 * requests the product makes.
 */
export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** The parsed JSON body; undefined for other bodies. */
  body: unknown;
  request: Request;
}

export type FakeRoute = (request: RecordedRequest) => Response | Promise<Response>;
type Override = (request: RecordedRequest) => Response | undefined | Promise<Response | undefined>;

export const jsonResponse = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** A page of `items` in the contract's list shape, for the request's `page` and `limit`. */
export function pageOf<T>(items: T[], query: URLSearchParams) {
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

export function createFakeServer(route: FakeRoute) {
  const requests: RecordedRequest[] = [];
  const overrides: { method: string; path: RegExp; handler: Override }[] = [];

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
    requests,
    /** Answers matching requests with `handler` first (undefined falls through to the fake). */
    on(method: string, path: RegExp, handler: Override) {
      overrides.push({ method, path, handler });
    },
    /** The requests made to `method path`, in order. */
    calls(method: string, path: string) {
      return requests.filter((r) => r.method === method && r.path === path);
    },
    json: jsonResponse,
  };
}
