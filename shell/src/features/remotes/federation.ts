import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { REMOTES, remoteAppId, type RemoteModule, type RemoteName, type RemotesManifest } from '@mailroom/mf-contract';

/** Loads a remote's './App'; rejects when the remote is down, not configured or exposes no component. */
export type RemoteLoader = (name: RemoteName, options?: { retry?: boolean }) => Promise<RemoteModule>;

/**
 * Registers the remotes listed in remotes.json with the Module Federation runtime the build plugin
 * created (the shell declares no remotes at build time), and returns the loader the areas use.
 * Nothing is fetched until an area is first shown.
 */
export function createRemoteLoader(manifest: Partial<RemotesManifest>): RemoteLoader {
  const remoteOf = (name: RemoteName) => {
    const entry = manifest[name];
    return entry ? { name: REMOTES[name].scope, entry } : null;
  };
  registerRemotes((Object.keys(REMOTES) as RemoteName[]).map(remoteOf).filter((remote) => remote !== null));

  return async (name, options) => {
    const remote = remoteOf(name);
    if (!remote) throw new Error(`The ${name} remote is not listed in remotes.json`);
    // After a failure, forget what the runtime cached about the remote so Retry fetches it again.
    if (options?.retry) registerRemotes([remote], { force: true });
    const module = await loadRemote<RemoteModule>(remoteAppId(name));
    if (!module || typeof module.default !== 'function') throw new Error(`${remoteAppId(name)} did not load`);
    return module;
  };
}
