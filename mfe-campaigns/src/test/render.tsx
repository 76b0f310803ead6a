import type { RemoteProps } from '@mailroom/mf-contract';
import { renderRemote } from '@mailroom/mf-contract/testing';
import { beforeAll, vi } from 'vitest';
import App from '../App';
import type { FakeApi } from './fake-api';

// The routes are lazy; loading them once before a file's tests keeps its first test from waiting on the import.
beforeAll(async () => {
  await Promise.all([
    import('../features/campaigns/routes/CampaignsListRoute'),
    import('../features/campaign-editor/routes/CampaignEditorRoute'),
  ]);
});

/** Renders the remote as the shell does, mounted at /campaigns, with the fake API as the global fetch. */
export function renderApp(
  url: string,
  api: FakeApi,
  { fakeTimers = false, role }: { fakeTimers?: boolean; role?: RemoteProps['role'] } = {},
) {
  vi.stubGlobal('fetch', api.fetch);
  const notify = vi.fn<RemoteProps['notify']>();
  return renderRemote(App, {
    basePath: '/campaigns',
    url,
    notify,
    ...(role ? { role } : {}),
    ...(fakeTimers ? { advanceTimers: vi.advanceTimersByTime } : {}),
  });
}
