import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import type { RemoteProps } from '@mailroom/mf-contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation, type Location } from 'react-router-dom';
import { vi } from 'vitest';
import App from '../App';
import type { FakeApi } from './fake-api';

/**
 * Renders the remote as the shell does (its own providers around `./App` mounted at /audiences),
 * with the fake API as the global fetch. `location()` is the router's current location.
 */
export function renderApp(url: string, api: FakeApi, { fakeTimers = false } = {}) {
  vi.stubGlobal('fetch', api.fetch);
  const notify = vi.fn<RemoteProps['notify']>();
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const props: RemoteProps = {
    basePath: '/audiences',
    apiBaseUrl: 'http://localhost',
    getAccessToken: async () => 'test-token',
    notify,
    profile: { firstName: 'Mia', lastName: 'Member', email: 'mia@example.org' },
    theme: 'light',
  };
  const current: { location: Location | null } = { location: null };
  function LocationProbe() {
    current.location = useLocation();
    return null;
  }
  const user = userEvent.setup(fakeTimers ? { advanceTimers: vi.advanceTimersByTime } : {});
  const view = render(
    <QueryClientProvider client={queryClient}>
      <FluentProvider theme={webLightTheme}>
        <MemoryRouter initialEntries={[url]}>
          <Routes>
            <Route path="/audiences/*" element={<App {...props} />} />
            <Route path="*" element={<p>Outside the remote</p>} />
          </Routes>
          <LocationProbe />
        </MemoryRouter>
      </FluentProvider>
    </QueryClientProvider>,
  );
  return {
    ...view,
    user,
    notify,
    queryClient,
    location: () => current.location!,
  };
}
