/**
 * The React side of the shell <-> remote contract.
 *
 * A remote's App puts its props in `<RemoteProvider value={props}>` once; its components then read
 * them with `useRemote()` and call the API with `useApiClient()`. This package is bundled into each
 * remote (it is not a Module Federation shared module), so provider and hooks come from one copy.
 */
import { createContext, createElement, useContext, useMemo, type ReactNode } from 'react';
import { createApiClient } from '@mailroom/api-client';
import type { RemoteContext } from './index';

const RemoteReactContext = createContext<RemoteContext | null>(null);
RemoteReactContext.displayName = 'RemoteContext';

/** Wraps a remote's tree (in its App) so `useRemote()` and `useApiClient()` work anywhere below. */
export function RemoteProvider({ value, children }: { value: RemoteContext; children?: ReactNode }) {
  return createElement(RemoteReactContext.Provider, { value }, children);
}

/** What the shell gave this remote. Throws outside `<RemoteProvider>`, which is a wiring bug. */
export function useRemote(): RemoteContext {
  const context = useContext(RemoteReactContext);
  if (!context) throw new Error('useRemote() needs <RemoteProvider value={props}> around the remote (in its App).');
  return context;
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** The typed API client (openapi-fetch) for this remote's context: base URL and bearer token from the shell. */
export function useApiClient(): ApiClient {
  const { apiBaseUrl, getAccessToken } = useRemote();
  return useMemo(() => createApiClient({ baseUrl: apiBaseUrl, getAccessToken }), [apiBaseUrl, getAccessToken]);
}
