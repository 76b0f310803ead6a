import type { FeatureSettings, RemoteProps } from '@mailroom/mf-contract';
import { renderRemote } from '@mailroom/mf-contract/testing';
import { vi } from 'vitest';
import App from '../App';
import type { FakeApi } from './fake-api';

/**
 * Renders the remote as the shell does, mounted at /audiences (or `basePath`: /people, its extra area),
 * with the fake API as the global fetch.
 */
export function renderApp(
  url: string,
  api: FakeApi,
  {
    fakeTimers = false,
    features,
    basePath = '/audiences',
  }: { fakeTimers?: boolean; features?: Partial<FeatureSettings>; basePath?: string } = {},
) {
  vi.stubGlobal('fetch', api.fetch);
  const notify = vi.fn<RemoteProps['notify']>();
  return renderRemote(App, {
    basePath,
    url,
    notify,
    features,
    ...(fakeTimers ? { advanceTimers: vi.advanceTimersByTime } : {}),
  });
}
