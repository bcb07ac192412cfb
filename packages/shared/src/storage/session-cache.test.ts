import 'fake-indexeddb/auto';
import { deleteDB, openDB } from 'idb';
import { CACHE_DATABASE, CACHE_VERSION, sessionCache, type CachedSession } from './session-cache';
import type { Me } from '../model/types';

function record(userId: number, extra: Partial<CachedSession> = {}): CachedSession {
  return {
    userId,
    savedAt: 1,
    me: { id: userId, name: `person ${userId}` } as Me,
    chats: [{ id: 5, participants: [userId, 9] } as never],
    users: [{ id: 9, name: 'nine' } as never],
    contacts: [],
    threads: [{ chatId: 5, messages: [{ id: 70, chat_id: 5 } as never] }],
    ...extra,
  };
}

afterEach(async () => {
  await sessionCache.close();
  await deleteDB(CACHE_DATABASE);
});

test('a saved session reads back for its person only', async () => {
  await sessionCache.write(record(3));
  expect(await sessionCache.read(3)).toEqual(record(3));
  expect(await sessionCache.read(4)).toBeNull();
});

test('a record this build cannot read is dropped, not shown half', async () => {
  await sessionCache.write(record(3));
  await sessionCache.close();
  const db = await openDB(CACHE_DATABASE, CACHE_VERSION);
  await db.put('sessions', { userId: 3, me: { id: 3 }, chats: 'not a list' });
  db.close();
  expect(await sessionCache.read(3)).toBeNull();
  await sessionCache.close();
  const again = await openDB(CACHE_DATABASE, CACHE_VERSION);
  expect(await again.count('sessions')).toBe(0);
  again.close();
});

test('a cache written by a newer build (after a rollback) is deleted, and the cache works again', async () => {
  const newer = await openDB(CACHE_DATABASE, CACHE_VERSION + 1, {
    upgrade(db) {
      db.createObjectStore('sessions', { keyPath: 'userId' }).put(record(3, { chats: [] }));
      db.createObjectStore('something-new');
    },
  });
  newer.close();
  expect(await sessionCache.read(3)).toBeNull();
  await sessionCache.write(record(3));
  expect(await sessionCache.read(3)).toEqual(record(3));
});

test('clearing forgets every person, including a write issued just before it', async () => {
  await sessionCache.write(record(3));
  void sessionCache.write(record(4));
  await sessionCache.clear();
  expect(await sessionCache.read(3)).toBeNull();
  expect(await sessionCache.read(4)).toBeNull();
});
