import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { localSettings, remotesApi } from '@messenger/shared';

/** The remotes the shell knows how to place, by federation name. */
export const Remotes = {
  messenger: 'mf_messenger',
  calls: 'mf_calls',
  staff: 'mf_staff',
} as const;
export type RemoteName = (typeof Remotes)[keyof typeof Remotes];

let registered: Promise<Map<string, string>> | null = null;
/** The server's list, when it is being checked behind a remembered one. */
let checked: Promise<Map<string, string>> | null = null;
/** Where the remotes are as this browser last heard it: a warm start loads them without asking first. */
const REMEMBERED = 'remotes';

type RemoteList = { name: string; entry: string }[];

function remembered(): RemoteList | null {
  try {
    const list: unknown = JSON.parse(localSettings.get(REMEMBERED) ?? 'null');
    const valid = Array.isArray(list) && list.every((remote) => typeof remote?.name === 'string' && typeof remote?.entry === 'string');
    return valid ? (list as RemoteList) : null;
  } catch {
    return null;
  }
}

function register(remotes: RemoteList, force = false): Map<string, string> {
  registerRemotes(
    remotes.map((remote) => ({ name: remote.name, entry: remote.entry })),
    { force },
  );
  return new Map(remotes.map((remote) => [remote.name, remote.entry]));
}

/** Asks the server where the remotes are, and remembers it for the next visit. */
function fetchList(): Promise<RemoteList> {
  return remotesApi.list().then((remotes) => {
    const list = remotes.map((remote) => ({ name: remote.name, entry: remote.entry }));
    localSettings.set(REMEMBERED, JSON.stringify(list));
    return list;
  });
}

/**
 * Reads `/remotes.json` (each remote's manifest URL, from the server's environment) and registers the remotes
 * with the federation runtime. Nothing about where remotes live is baked into the shell's build. A list this
 * browser remembers is used at once and checked in the background: a manifest URL rarely moves (a new release
 * of a remote is a new manifest at the same URL), and when one has, the server's list replaces it for the
 * retry of whatever failed, and for the next visit.
 */
function registerAll(): Promise<Map<string, string>> {
  if (registered) return registered;
  const known = remembered();
  const fresh = fetchList();
  if (known) {
    const now = register(known);
    registered = Promise.resolve(now);
    checked = fresh.then(
      (list) => {
        // Only what moved is registered again (`force` drops a remote's loaded container: not for the unchanged).
        const moved = list.filter((remote) => now.has(remote.name) && now.get(remote.name) !== remote.entry);
        const added = list.filter((remote) => !now.has(remote.name));
        if (moved.length > 0) register(moved, true);
        if (added.length > 0) register(added);
        const current = new Map(list.map((remote) => [remote.name, remote.entry]));
        registered = Promise.resolve(current);
        return current;
      },
      () => {
        // The remembered list stands for now; the next load asks the server again.
        registered = null;
        checked = null;
        return now;
      },
    );
    return registered;
  }
  registered = fresh.then(
    (list) => register(list),
    (error: unknown) => {
      registered = null; // let the next attempt ask again
      throw error;
    },
  );
  return registered;
}

/**
 * Loads one exposed module of a remote. On a retry the remote is registered afresh (`force`), dropping what the
 * runtime cached of the failed attempt, so a remote that comes back works without reloading the page.
 */
export async function loadExposed<T>(remote: RemoteName, module: string, retry: boolean): Promise<T> {
  let entries = await registerAll();
  // A remote added since this browser last looked is in the server's list only.
  if (!entries.has(remote) && checked) entries = await checked;
  const entry = entries.get(remote);
  if (!entry) throw new Error(`remote ${remote} is not listed in /remotes.json`);
  if (retry) registerRemotes([{ name: remote, entry }], { force: true });
  const loaded = await loadRemote<T>(`${remote}/${module}`);
  if (!loaded) throw new Error(`${remote}/${module} could not be loaded`);
  return loaded;
}
