import type { RemotesManifest, ShellConfig } from '@mailroom/mf-contract';

export type { ShellConfig };

async function fetchJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { headers: { Accept: 'application/json' }, cache: 'no-cache' });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return (await response.json()) as T;
}

export const loadShellConfig = () => fetchJson<ShellConfig>('/config.json');

/** Where each remote's mf-manifest.json is; a team redeploys its remote without rebuilding the shell. */
export const loadRemotesManifest = () => fetchJson<Partial<RemotesManifest>>('/remotes.json');
