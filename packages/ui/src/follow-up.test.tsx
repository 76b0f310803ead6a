import { DEFAULT_FEATURE_SETTINGS, type RemoteContext } from '@mailroom/mf-contract';
import { createFakeFetch, json } from '@mailroom/mf-contract/fake-api';
import { RemoteProvider } from '@mailroom/mf-contract/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useFollowUpCampaign } from './useFollowUpCampaign';

afterEach(() => vi.unstubAllGlobals());

const remote: RemoteContext = {
  basePath: '/campaigns',
  apiBaseUrl: 'http://localhost',
  getAccessToken: async () => 'test-token',
  notify: () => undefined,
  profile: { firstName: 'Mia', lastName: 'Member', email: 'mia@example.org' },
  role: 'admin',
  theme: 'light',
  features: DEFAULT_FEATURE_SETTINGS,
};

function renderFollowUp(onSuccess?: () => void) {
  const api = createFakeFetch(() => json(201, { id: 9, name: 'Autumn news (follow-up)' }));
  vi.stubGlobal('fetch', api.fetch);
  const queryClient = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <RemoteProvider value={remote}>{children}</RemoteProvider>
    </QueryClientProvider>
  );
  return { api, ...renderHook(() => useFollowUpCampaign(onSuccess ? { onSuccess } : {}), { wrapper }) };
}

describe('useFollowUpCampaign', () => {
  it("posts the member's choice for the sent campaign and answers the new draft", async () => {
    const { api, result } = renderFollowUp();
    const draft = await result.current.mutateAsync({ id: 4, recipients: 'NOT_CLICKED' });
    expect(draft).toMatchObject({ id: 9, name: 'Autumn news (follow-up)' });
    expect(api.calls('POST', '/api/campaigns/4/follow-up').map((call) => call.body)).toEqual([{ recipients: 'NOT_CLICKED' }]);
    expect(api.requests[0]!.request.headers.get('Authorization')).toBe('Bearer test-token');
  });

  it('tells the caller once the draft exists (the campaigns remote reads its lists again)', async () => {
    const onSuccess = vi.fn();
    const { result } = renderFollowUp(onSuccess);
    result.current.mutate({ id: 4, recipients: 'NOT_OPENED' });
    await waitFor(() => expect(onSuccess).toHaveBeenCalledTimes(1));
    expect(onSuccess.mock.calls[0]![0]).toMatchObject({ id: 9 });
  });
});
