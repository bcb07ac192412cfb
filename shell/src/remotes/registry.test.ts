import type * as Registry from './registry';

jest.mock('@module-federation/enhanced/runtime', () => ({
  loadRemote: jest.fn(async (id: string) => ({ default: id })),
  registerRemotes: jest.fn(),
}));

const MESSENGER = { name: 'mf_messenger', entry: '/remotes/mf-messenger/mf-manifest.json' };
const STAFF = { name: 'mf_staff', entry: '/remotes/mf-staff/mf-manifest.json' };

let answer: (remotes: (typeof MESSENGER)[]) => void;
let registerRemotes: jest.Mock;

/** The registry afresh, as a new page has it (its list is kept per page); the server's answer is `answer`. */
async function freshRegistry(): Promise<typeof Registry> {
  jest.resetModules();
  const { remotesApi } = await import('@messenger/shared');
  registerRemotes = jest.mocked((await import('@module-federation/enhanced/runtime')).registerRemotes) as unknown as jest.Mock;
  jest.spyOn(remotesApi, 'list').mockReturnValue(new Promise((resolve) => (answer = resolve)));
  return import('./registry');
}

const rememberedList = () => JSON.parse(localStorage.getItem('msgr.remotes') ?? 'null') as unknown;

beforeEach(() => localStorage.clear());

test('a first visit asks the server where the remotes are, and remembers it', async () => {
  const { loadExposed } = await freshRegistry();
  const loading = loadExposed('mf_messenger', 'ChatsTab', false);
  answer([MESSENGER]);
  await expect(loading).resolves.toEqual({ default: 'mf_messenger/ChatsTab' });
  expect(rememberedList()).toEqual([MESSENGER]);
});

test('a later visit loads a remote from the remembered list without waiting for the server', async () => {
  localStorage.setItem('msgr.remotes', JSON.stringify([MESSENGER]));
  const { loadExposed } = await freshRegistry();
  await expect(loadExposed('mf_messenger', 'ChatsTab', false)).resolves.toEqual({ default: 'mf_messenger/ChatsTab' });
  expect(registerRemotes).toHaveBeenCalledWith([MESSENGER], { force: false });
  // The server's answer, once here, is what the next visit uses.
  answer([MESSENGER, STAFF]);
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(rememberedList()).toEqual([MESSENGER, STAFF]);
});

test('a remote the remembered list does not name waits for the server’s list', async () => {
  localStorage.setItem('msgr.remotes', JSON.stringify([MESSENGER]));
  const { loadExposed } = await freshRegistry();
  const loading = loadExposed('mf_staff', 'StatisticsPage', false);
  let settled = false;
  void loading.then(() => (settled = true));
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(settled).toBe(false);
  answer([MESSENGER, STAFF]);
  await expect(loading).resolves.toEqual({ default: 'mf_staff/StatisticsPage' });
  expect(registerRemotes).toHaveBeenLastCalledWith([STAFF], { force: false });
});

test('a remote that moved is registered again, and only that one', async () => {
  localStorage.setItem('msgr.remotes', JSON.stringify([MESSENGER, STAFF]));
  const { loadExposed } = await freshRegistry();
  await loadExposed('mf_messenger', 'ChatsTab', false);
  const movedStaff = { name: 'mf_staff', entry: 'https://staff.example/mf-manifest.json' };
  answer([MESSENGER, movedStaff]);
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(registerRemotes).toHaveBeenLastCalledWith([movedStaff], { force: true });
  expect(registerRemotes).toHaveBeenCalledTimes(2);
});

test('a remembered list that is not a list is ignored', async () => {
  localStorage.setItem('msgr.remotes', '{"broken":');
  const { loadExposed } = await freshRegistry();
  const loading = loadExposed('mf_messenger', 'ChatsTab', false);
  answer([MESSENGER]);
  await expect(loading).resolves.toEqual({ default: 'mf_messenger/ChatsTab' });
});
