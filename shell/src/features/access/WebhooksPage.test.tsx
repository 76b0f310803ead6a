import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ShellContext } from '../../ShellContext';
import { testConfig } from '../../test/render';
import { WebhooksPage } from './WebhooksPage';

const json = (body: unknown, status = 200) =>
  new Response(status === 204 ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const endpoint = {
  id: 7,
  url: 'https://n8n.example.org/webhook/abc',
  events: ['campaign.sent', 'contact.subscribed'],
  description: '',
  enabled: true,
  createdAt: '2026-11-01T10:00:00Z',
  updatedAt: '2026-11-01T10:00:00Z',
};

type Call = { method: string; path: string; body: unknown };

/** A fake API: the caller's role, the endpoints in `store`, and the answers the screen's calls get. */
function stubApi({
  role = 'admin',
  store = [] as (typeof endpoint)[],
  refuseCreate,
}: { role?: string; store?: (typeof endpoint)[]; refuseCreate?: string } = {}) {
  const calls: Call[] = [];
  let resent = false;
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input).replace('http://api.test', '');
    const method = init?.method ?? 'GET';
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ method, path, body });
    if (path === '/api/me') return json({ email: 'mia@example.org', firstName: 'Mia', lastName: 'Member', role, apiKey: false });
    if (path === '/api/webhooks' && method === 'GET') return json({ items: store });
    if (path === '/api/webhooks' && method === 'POST') {
      if (refuseCreate) return json({ message: refuseCreate }, 400);
      const made = { ...endpoint, id: 8, ...body, description: '', enabled: true };
      store.push(made);
      return json({ ...made, secret: 'whsec_bWFkZQ==' }, 201);
    }
    const deliveries = path.match(/^\/api\/webhooks\/(\d+)\/deliveries\?limit=(\d+)$/);
    if (deliveries) {
      const failed = {
        id: 1,
        messageId: 'msg_1',
        endpointId: 7,
        eventType: 'contact.subscribed',
        status: resent ? 'PENDING' : 'FAILED',
        attempts: 12,
        lastStatus: 500,
        lastError: 'HTTP 500',
        nextAttemptAt: null,
        deliveredAt: null,
        createdAt: '2026-11-01T10:00:00Z',
      };
      const delivered = {
        ...failed,
        id: 2,
        messageId: 'msg_2',
        eventType: 'campaign.sent',
        status: 'DELIVERED',
        attempts: 1,
        lastStatus: 204,
        lastError: null,
      };
      const items = deliveries[1] === '7' ? [failed, delivered].slice(0, Number(deliveries[2])) : [];
      return json({ items, nextBefore: null });
    }
    if (path === '/api/webhook-deliveries/1/resend' && method === 'POST') {
      resent = true;
      return json(null, 204);
    }
    const one = path.match(/^\/api\/webhooks\/(\d+)(\/secret)?$/);
    if (one && method === 'PUT') {
      const index = store.findIndex((each) => each.id === Number(one[1]));
      store[index] = { ...store[index]!, ...body };
      return json(store[index]);
    }
    if (one && one[2] && method === 'POST') return json({ secret: 'whsec_cm90YXRlZA==' });
    if (one && method === 'DELETE') {
      store.splice(
        store.findIndex((each) => each.id === Number(one[1])),
        1,
      );
      return json(null, 204);
    }
    return json({ message: 'not found' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, store };
}

function renderPage() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <FluentProvider theme={webLightTheme}>
      <QueryClientProvider client={queryClient}>
        <ShellContext.Provider
          value={{ config: testConfig, apiBaseUrl: 'http://api.test', getAccessToken: async () => 'token-1', loadRemote: vi.fn() }}
        >
          <WebhooksPage />
        </ShellContext.Provider>
      </QueryClientProvider>
    </FluentProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('WebhooksPage', () => {
  it('tells a member below admin who can, and reads no endpoint', async () => {
    const { calls } = stubApi({ role: 'editor' });
    renderPage();
    expect(await screen.findByText('Admins can manage webhooks.')).toBeTruthy();
    expect(calls.some((call) => call.path.startsWith('/api/webhooks'))).toBe(false);
    expect(screen.queryByRole('button', { name: 'Add endpoint' })).toBeNull();
  });

  it('shows the empty state', async () => {
    stubApi();
    renderPage();
    expect(await screen.findByText(/No endpoints yet/)).toBeTruthy();
  });

  it('lists endpoints with their events in words, whether on, and the last delivery', async () => {
    stubApi({ store: [{ ...endpoint }] });
    renderPage();
    const row = (await screen.findByText(endpoint.url)).closest('tr')!;
    expect(within(row).getByText('A contact subscribed, A campaign was sent')).toBeTruthy();
    expect(within(row).getByText('Yes')).toBeTruthy();
    expect(await within(row).findByText('Failed after 12 attempts: HTTP 500')).toBeTruthy();
  });

  it('adds an endpoint with the chosen events and shows its secret once, with a copy button', async () => {
    const { calls } = stubApi();
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    renderPage();
    const add = await screen.findByRole('button', { name: 'Add endpoint' });
    fireEvent.change(screen.getByRole('textbox', { name: /Endpoint URL/ }), { target: { value: 'https://hooks.example.org/in' } });
    expect(add.hasAttribute('disabled')).toBe(true); // no event chosen yet
    fireEvent.click(screen.getByRole('checkbox', { name: 'An import finished' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'A contact unsubscribed' }));
    fireEvent.click(add);

    const dialog = await screen.findByRole('dialog', { name: 'The endpoint’s signing secret' });
    expect(within(dialog).getByTestId('webhook-secret').textContent).toBe('whsec_bWFkZQ==');
    // The contract's order, whatever the order of the clicks.
    expect(calls.find((call) => call.method === 'POST')!.body).toEqual({
      url: 'https://hooks.example.org/in',
      events: ['contact.unsubscribed', 'import.finished'],
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Copy secret' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('whsec_bWFkZQ=='));
    expect(await within(dialog).findByText('Copied.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByTestId('webhook-secret')).toBeNull());
    expect(await screen.findByText('https://hooks.example.org/in')).toBeTruthy();
  });

  it("shows the API's refusal of a URL", async () => {
    stubApi({ refuseCreate: 'A webhook endpoint must be an https:// URL.' });
    renderPage();
    fireEvent.change(await screen.findByRole('textbox', { name: /Endpoint URL/ }), { target: { value: 'http://hooks.example.org/in' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'A campaign was sent' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
    expect((await screen.findByRole('alert')).textContent).toBe('A webhook endpoint must be an https:// URL.');
  });

  it('changes the events and switches an endpoint off', async () => {
    const { calls } = stubApi({ store: [{ ...endpoint }] });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: `Edit ${endpoint.url}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit the endpoint' });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'A campaign was sent' }));
    fireEvent.click(within(dialog).getByRole('switch', { name: 'Active' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((call) => call.method === 'PUT')).toMatchObject({
      path: '/api/webhooks/7',
      body: { url: endpoint.url, events: ['contact.subscribed'], enabled: false },
    });
    const row = (await screen.findByText(endpoint.url)).closest('tr')!;
    expect(await within(row).findByText('No')).toBeTruthy();
  });

  it('rotates the secret after asking, and shows the new one', async () => {
    stubApi({ store: [{ ...endpoint }] });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: `New secret for ${endpoint.url}` }));
    const ask = await screen.findByRole('dialog', { name: 'Make a new secret?' });
    fireEvent.click(within(ask).getByRole('button', { name: 'Make a new secret' }));
    const shown = await screen.findByRole('dialog', { name: 'The new signing secret' });
    expect(within(shown).getByTestId('webhook-secret').textContent).toBe('whsec_cm90YXRlZA==');
  });

  it("opens an endpoint's delivery log and sends a failed delivery again", async () => {
    const { calls } = stubApi({ store: [{ ...endpoint }] });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: `Deliveries to ${endpoint.url}` }));
    const log = await screen.findByRole('dialog', { name: 'Deliveries' });
    const table = await within(log).findByRole('table', { name: 'Deliveries' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['A contact subscribed', new Date('2026-11-01T10:00:00Z').toLocaleString(), '12', 'Failed: HTTP 500', 'Send again'],
      ['A campaign was sent', new Date('2026-11-01T10:00:00Z').toLocaleString(), '1', 'Delivered', ''],
    ]);
    fireEvent.click(within(rows[0]!).getByRole('button', { name: /^Send again the A contact subscribed delivery/ }));
    expect(await within(log).findByText('The delivery is due again and will be tried for another 24 hours.')).toBeTruthy();
    expect(calls.filter((call) => call.method === 'POST' && call.path === '/api/webhook-deliveries/1/resend')).toHaveLength(1);
    // Read again: the delivery is pending, and nothing is offered to send twice.
    expect(await within(table).findByText('Retrying (HTTP 500)')).toBeTruthy();
    expect(within(table).queryByRole('button', { name: /^Send again/ })).toBeNull();
    fireEvent.click(within(log).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Deliveries' })).toBeNull());
  });

  it('deletes after a confirmation naming the URL', async () => {
    const { calls } = stubApi({ store: [{ ...endpoint }] });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: `Delete ${endpoint.url}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete the endpoint?' });
    expect(dialog.textContent).toContain(endpoint.url);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(/No endpoints yet/)).toBeTruthy();
    expect(calls.some((call) => call.method === 'DELETE' && call.path === '/api/webhooks/7')).toBe(true);
  });
});
