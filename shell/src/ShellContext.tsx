import { createContext, useContext } from 'react';
import type { ShellConfig } from './config';
import type { RemoteLoader } from './features/remotes/federation';

/** What the shell's own parts need from the outside: configuration, token and the remote loader. */
export interface ShellContextValue {
  config: ShellConfig;
  apiBaseUrl: string;
  getAccessToken: () => Promise<string | null>;
  loadRemote: RemoteLoader;
}

export const ShellContext = createContext<ShellContextValue | null>(null);

export function useShell(): ShellContextValue {
  const value = useContext(ShellContext);
  if (!value) throw new Error('useShell() outside the shell');
  return value;
}
