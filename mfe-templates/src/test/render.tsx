import type { RemoteProps } from '@mailroom/mf-contract';
import { renderRemote } from '@mailroom/mf-contract/testing';
import { vi } from 'vitest';
import App from '../App';
import type { FakeApi } from './fake-api';

/** Renders the remote as the shell does, mounted at /templates, with the fake API as the global fetch. */
export function renderApp(
  url: string,
  api: FakeApi,
  { fakeTimers = false, role }: { fakeTimers?: boolean; role?: RemoteProps['role'] } = {},
) {
  vi.stubGlobal('fetch', api.fetch);
  const notify = vi.fn<RemoteProps['notify']>();
  return renderRemote(App, {
    basePath: '/templates',
    url,
    notify,
    ...(role ? { role } : {}),
    ...(fakeTimers ? { advanceTimers: vi.advanceTimersByTime } : {}),
  });
}
