import type { RemotesManifest } from '@mailroom/mf-contract';

/** `/config.json`, served next to the shell by the web server (see api/src/stack/web.ts). */
export interface ShellConfig {
  /** Base of the API without a trailing slash; '' means the shell's own origin. */
  apiBaseUrl: string;
  oidc: { authority: string; clientId: string; scope: string };
  /** Only accounts whose e-mail domain is exactly this one may sign in. */
  orgDomain: string;
  orgName: string;
  /** A Pexels-style photo search for the login background, or null for the bundled image. */
  stockPhoto: { url: string; key: string } | null;
}

async function fetchJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { headers: { Accept: 'application/json' }, cache: 'no-cache' });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return (await response.json()) as T;
}

export const loadShellConfig = () => fetchJson<ShellConfig>('/config.json');

/** Where each remote's mf-manifest.json is; a team redeploys its remote without rebuilding the shell. */
export const loadRemotesManifest = () => fetchJson<Partial<RemotesManifest>>('/remotes.json');
