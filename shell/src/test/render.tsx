import { render } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { QueryClient } from '@tanstack/react-query';
import { vi } from 'vitest';
import { DEFAULT_FEATURE_SETTINGS, type RemoteModule, type RemoteName, type RemoteProps } from '@mailroom/mf-contract';
import { Shell } from '../App';
import type { ShellConfig } from '../config';
import type { AuthService, Profile } from '../features/auth/types';
import type { RemoteLoader } from '../features/remotes/federation';
import type { Quota } from '../features/quota/quota';

export const testConfig: ShellConfig = {
  apiBaseUrl: 'http://api.test',
  oidc: { authority: 'http://idp.test', clientId: 'mailroom-shell', scope: 'openid profile email' },
  orgDomain: 'example.org',
  orgName: 'Example',
  stockPhoto: null,
  features: DEFAULT_FEATURE_SETTINGS,
};

export const mia: Profile = { firstName: 'Mia', lastName: 'Member', email: 'mia@example.org' };

export const sampleQuota: Quota = { emailsSent: 120, remainingSends: 880, quotaUsedPercentage: 12, maxSendRate: 14, max24HourSend: 1000 };

/** An identity provider that has `profile` signed in (null: nobody), or never answers with 'pending'. */
export function fakeAuth(profile: Profile | null | 'pending') {
  return {
    restoreSession: vi.fn(() => (profile === 'pending' ? new Promise<never>(() => {}) : Promise.resolve(profile && { profile }))),
    signIn: vi.fn(async () => {}),
    signOut: vi.fn(async () => {}),
    forget: vi.fn(async () => {}),
    getAccessToken: vi.fn(async () => 'token-1'),
    onSessionEnded: vi.fn<AuthService['onSessionEnded']>(() => () => {}),
  } satisfies AuthService;
}

/** A remote that shows which area it is and where the router is. */
export function fakeRemote(name: RemoteName): RemoteModule {
  function FakeRemoteApp(props: RemoteProps) {
    const location = useLocation();
    return (
      <div data-testid="remote">
        {name} remote at {props.basePath} showing {location.pathname}
      </div>
    );
  }
  return { default: FakeRemoteApp };
}

export const fakeLoader = (): RemoteLoader & ReturnType<typeof vi.fn> => vi.fn(async (name: RemoteName) => fakeRemote(name));

/** fetch answering the quota call with `quota` (or a status), the caller's role with `role`, and anything else with 404. */
export function stubQuotaFetch(answer: Quota | number | 'pending' = sampleQuota, role = 'admin') {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = String(input);
    if (url.endsWith('/api/me')) {
      const caller = { email: 'mia@example.org', firstName: 'Mia', lastName: 'Member', role, apiKey: false };
      return new Response(JSON.stringify(caller), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }
    if (url.endsWith('/api/ses-quota')) {
      if (answer === 'pending') return new Promise<Response>(() => {});
      if (typeof answer === 'number') return new Response(JSON.stringify({ message: 'nope' }), { status: answer });
      return new Response(JSON.stringify(answer), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }
    return new Response('not found', { status: 404 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

export function renderShell({
  path = '/',
  auth = fakeAuth(mia),
  loadRemote = fakeLoader(),
  config = testConfig,
}: { path?: string; auth?: AuthService; loadRemote?: RemoteLoader; config?: ShellConfig } = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  let currentPath = path;
  let currentAddress = path;
  function TrackLocation() {
    const location = useLocation();
    currentPath = location.pathname;
    currentAddress = `${location.pathname}${location.search}`;
    return null;
  }
  const view = render(
    <MemoryRouter initialEntries={[path]}>
      <TrackLocation />
      <Shell config={config} auth={auth} loadRemote={loadRemote} queryClient={queryClient} />
    </MemoryRouter>,
  );
  return { ...view, auth, loadRemote, queryClient, location: () => currentPath, address: () => currentAddress };
}
