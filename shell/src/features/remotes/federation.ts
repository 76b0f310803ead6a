import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import type { RemoteModule, RemotesManifest } from '@mailroom/mf-contract';
import { REMOTES, remoteAppId, type RemoteName } from '@mailroom/mf-contract/remotes';

/** Loads a remote's './App'; rejects when the remote is down, not configured or exposes no component. */
export type RemoteLoader = (name: RemoteName, options?: { retry?: boolean }) => Promise<RemoteModule>;

/** The part of a remote's mf-manifest.json that says where its container (remoteEntry.js) is. */
interface FederationManifest {
  metaData?: { publicPath?: string; remoteEntry?: { name?: string; path?: string } };
}

/**
 * The URL of the container a remote's mf-manifest.json names, resolved against the manifest's own URL
 * (our remotes are built with publicPath 'auto': their files sit next to the manifest).
 *
 * The shell's federation runtime is built without the manifest ("snapshot") plugin, which carries a
 * good part of the runtime's size; reading the two fields it needs here keeps remotes.json pointing at
 * each remote's manifest, so a team still redeploys its remote without rebuilding the shell.
 */
export async function containerUrl(manifestUrl: string, fetchImpl: typeof fetch = fetch): Promise<string> {
  const response = await fetchImpl(manifestUrl, { headers: { Accept: 'application/json' }, cache: 'no-cache' });
  if (!response.ok) throw new Error(`${manifestUrl} answered ${response.status}`);
  const { metaData } = (await response.json()) as FederationManifest;
  const entry = metaData?.remoteEntry;
  if (!entry?.name) throw new Error(`${manifestUrl} names no remoteEntry`);
  const manifest = new URL(manifestUrl, window.location.href);
  const publicPath = !metaData?.publicPath || metaData.publicPath === 'auto' ? manifest : new URL(metaData.publicPath, manifest);
  const dir = entry.path ? `${entry.path.replace(/^\/+|\/+$/g, '')}/` : '';
  return new URL(`${dir}${entry.name}`, publicPath).href;
}

/**
 * Registers the remotes listed in remotes.json with the Module Federation runtime the build plugin
 * created (the shell declares no remotes at build time), and returns the loader the areas use.
 * Nothing is fetched until an area is first shown: then its manifest, its container and './App'.
 */
export function createRemoteLoader(manifest: Partial<RemotesManifest>): RemoteLoader {
  // One registration per remote, redone on retry (the remote may have been redeployed meanwhile).
  const registered = new Map<RemoteName, Promise<void>>();
  const register = (name: RemoteName, retry: boolean) => {
    let done = registered.get(name);
    if (!done || retry) {
      const manifestUrl = manifest[name];
      done = manifestUrl
        ? containerUrl(manifestUrl).then((entry) =>
            // force: after a failure, forget what the runtime cached about the remote so Retry fetches it again.
            registerRemotes([{ name: REMOTES[name].scope, entry }], { force: retry }),
          )
        : Promise.reject(new Error(`The ${name} remote is not listed in remotes.json`));
      // A failed registration is not kept: the next attempt starts over.
      done.catch(() => registered.delete(name));
      registered.set(name, done);
    }
    return done;
  };

  return async (name, options) => {
    await register(name, options?.retry ?? false);
    const module = await loadRemote<RemoteModule>(remoteAppId(name));
    if (!module || typeof module.default !== 'function') throw new Error(`${remoteAppId(name)} did not load`);
    return module;
  };
}
