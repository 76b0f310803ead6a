import { describe, expect, it } from 'vitest';
import { ApiError, createApiClient, errorMessage } from '@mailroom/api-client';

// The generated client: bearer token on every request, non-2xx thrown as ApiError carrying the server's message.

function stubFetch(status: number, body: unknown, contentType = 'application/json') {
  const requests: Request[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    requests.push(request);
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    return new Response(status === 204 ? null : text, { status, headers: { 'content-type': contentType } });
  };
  return { fetch: fetch as typeof globalThis.fetch, requests };
}

describe('createApiClient', () => {
  it('sends the bearer token and returns the typed data', async () => {
    const quota = { emailsSent: 1, remainingSends: 199, quotaUsedPercentage: 0.5, maxSendRate: 14, max24HourSend: 200 };
    const { fetch, requests } = stubFetch(200, quota);
    const api = createApiClient({ baseUrl: 'http://localhost:3000', getAccessToken: async () => 'tok-1', fetch });
    const { data } = await api.GET('/api/ses-quota');
    expect(data?.maxSendRate).toBe(14);
    expect(requests[0]!.url).toBe('http://localhost:3000/api/ses-quota');
    expect(requests[0]!.headers.get('authorization')).toBe('Bearer tok-1');
  });

  it('sends no Authorization header without a token, and serializes query parameters', async () => {
    const { fetch, requests } = stubFetch(200, {
      items: [],
      meta: { currentPage: 1, itemCount: 0, itemsPerPage: 10, totalItems: 0, totalPages: 0 },
    });
    const api = createApiClient({ baseUrl: 'http://localhost:3000', getAccessToken: () => null, fetch });
    await api.GET('/api/audiences/{id}/contacts', { params: { path: { id: 7 }, query: { page: 2, limit: 25, hasError: true } } });
    expect(requests[0]!.headers.has('authorization')).toBe(false);
    expect(requests[0]!.url).toBe('http://localhost:3000/api/audiences/7/contacts?page=2&limit=25&hasError=true');
  });

  it('percent-encodes every reserved character of a query value, as the contract asks (allowReserved: false)', async () => {
    const { fetch, requests } = stubFetch(200, {
      data: { items: [], meta: { currentPage: 1, itemCount: 0, itemsPerPage: 10, totalItems: 0, totalPages: 0 } },
    });
    const api = createApiClient({ baseUrl: 'http://localhost:3000', getAccessToken: () => null, fetch });
    await api.GET('/api/campaigns', { params: { query: { name: "Autumn news (follow-up)! Mia's *best*: a+b=c, d&e/f?g#h" } } });
    const query = new URL(requests[0]!.url).search;
    expect(query).toBe('?name=Autumn%20news%20%28follow-up%29%21%20Mia%27s%20%2Abest%2A%3A%20a%2Bb%3Dc%2C%20d%26e%2Ff%3Fg%23h');
    // The same words, read back as the API reads them.
    expect(new URL(requests[0]!.url).searchParams.get('name')).toBe("Autumn news (follow-up)! Mia's *best*: a+b=c, d&e/f?g#h");
  });

  it("throws an ApiError with the server's message and field errors", async () => {
    const { fetch } = stubFetch(409, { message: 'Only a draft can be sent', errors: [{ path: '/status', message: 'is SENT' }] });
    const api = createApiClient({ baseUrl: 'http://localhost:3000', getAccessToken: () => 't', fetch });
    const error = await api.POST('/api/campaigns/{id}/send', { params: { path: { id: 4 } } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, message: 'Only a draft can be sent', serverMessage: 'Only a draft can be sent' });
    expect((error as ApiError).errors).toEqual([{ path: '/status', message: 'is SENT' }]);
  });

  it('throws a generic ApiError when the body carries no message', async () => {
    const { fetch } = stubFetch(502, '<html>Bad gateway</html>', 'text/html');
    const api = createApiClient({ baseUrl: 'http://localhost:3000', getAccessToken: () => 't', fetch });
    const error = await api.GET('/api/ses-quota').catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502, message: 'Request failed with status 502', serverMessage: undefined });
  });

  it('returns no data for 204', async () => {
    const { fetch } = stubFetch(204, '');
    const api = createApiClient({ baseUrl: 'http://localhost:3000', getAccessToken: () => 't', fetch });
    const { response } = await api.DELETE('/api/templates/{id}', { params: { path: { id: 2 } } });
    expect(response.status).toBe(204);
  });
});

describe('errorMessage (docs/product.md, Messages and behaviour worth knowing)', () => {
  it("prefers the server's message, then the screen's fallback for an answer without one, then the error's own message", () => {
    expect(errorMessage(new ApiError(400, { message: 'Fill your audience name' }), 'Failed')).toBe('Fill your audience name');
    expect(errorMessage(new ApiError(500, undefined), 'Failed to update audience name')).toBe('Failed to update audience name');
    expect(errorMessage(new TypeError('Failed to fetch'), 'Failed to retry job')).toBe('Failed to fetch');
    expect(errorMessage(new Error(''), 'Something went wrong')).toBe('Something went wrong');
    expect(errorMessage({ message: 'plain object' }, 'Failed')).toBe('plain object');
    expect(errorMessage(undefined, 'Failed to continue campaign')).toBe('Failed to continue campaign');
  });
});
