/**
 * Component tests of a remote: renders its `./App` as the shell mounts it (the shell's providers,
 * the remote under its base path, a `RemoteProps` context with a fake token and a spy for toasts).
 * `location()` is the router's current location, for asserting navigation.
 */
import type { ComponentType } from 'react';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation, type Location } from 'react-router-dom';
import { DEFAULT_FEATURE_SETTINGS, type FeatureSettings, type RemoteProps } from './index';

export interface RenderRemoteOptions {
  /** Where the shell mounts the remote, e.g. '/audiences'. */
  basePath: string;
  /** The address to open; defaults to the base path. */
  url?: string;
  /** The toast spy (the test runner's mock function, e.g. `vi.fn()`); kept free of any one runner here. */
  notify: RemoteProps['notify'];
  /** With fake timers: how user-event moves them (e.g. `vi.advanceTimersByTime`). */
  advanceTimers?: (ms: number) => unknown;
  /** Deployment settings other than the API's defaults (e.g. a small import limit). */
  features?: Partial<FeatureSettings>;
  /** The member's role (default admin: everything shown, as with no ROLE_MAP). */
  role?: RemoteProps['role'];
}

export function renderRemote(
  App: ComponentType<RemoteProps>,
  { basePath, url = basePath, notify, advanceTimers, features, role = 'admin' }: RenderRemoteOptions,
) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const props: RemoteProps = {
    basePath,
    apiBaseUrl: 'http://localhost',
    getAccessToken: async () => 'test-token',
    notify,
    profile: { firstName: 'Mia', lastName: 'Member', email: 'mia@example.org' },
    role,
    theme: 'light',
    features: { ...DEFAULT_FEATURE_SETTINGS, ...features },
  };
  const current: { location: Location | null } = { location: null };
  function LocationProbe() {
    current.location = useLocation();
    return null;
  }
  const user = userEvent.setup(advanceTimers ? { advanceTimers } : {});
  const view = render(
    <QueryClientProvider client={queryClient}>
      <FluentProvider theme={webLightTheme}>
        <MemoryRouter initialEntries={[url]}>
          <Routes>
            <Route path={`${basePath}/*`} element={<App {...props} />} />
            <Route path="*" element={<p>Outside the remote</p>} />
          </Routes>
          <LocationProbe />
        </MemoryRouter>
      </FluentProvider>
    </QueryClientProvider>,
  );
  return { ...view, user, notify, queryClient, location: () => current.location! };
}
