import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { remotesApi } from '@messenger/shared';

/** The remotes the shell knows how to place, by federation name. */
export const Remotes = {
  messenger: 'mf_messenger',
  calls: 'mf_calls',
  staff: 'mf_staff',
} as const;
export type RemoteName = (typeof Remotes)[keyof typeof Remotes];

let registered: Promise<Map<string, string>> | null = null;

/**
 * Reads `/remotes.json` (each remote's manifest URL, from the server's environment) and registers the remotes
 * with the federation runtime. Nothing about where remotes live is baked into the shell's build.
 */
function registerAll(): Promise<Map<string, string>> {
  registered ??= remotesApi
    .list()
    .then((remotes) => {
      registerRemotes(remotes.map((remote) => ({ name: remote.name, entry: remote.entry })));
      return new Map(remotes.map((remote) => [remote.name, remote.entry]));
    })
    .catch((error: unknown) => {
      registered = null; // let the next attempt ask again
      throw error;
    });
  return registered;
}

/**
 * Loads one exposed module of a remote. On a retry the remote is registered afresh (`force`), dropping what the
 * runtime cached of the failed attempt, so a remote that comes back works without reloading the page.
 */
export async function loadExposed<T>(remote: RemoteName, module: string, retry: boolean): Promise<T> {
  const entries = await registerAll();
  const entry = entries.get(remote);
  if (!entry) throw new Error(`remote ${remote} is not listed in /remotes.json`);
  if (retry) registerRemotes([{ name: remote, entry }], { force: true });
  const loaded = await loadRemote<T>(`${remote}/${module}`);
  if (!loaded) throw new Error(`${remote}/${module} could not be loaded`);
  return loaded;
}
