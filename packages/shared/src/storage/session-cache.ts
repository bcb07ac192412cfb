import { deleteDB, openDB, type DBSchema, type IDBPDatabase, type IDBPTransaction } from 'idb';
import { SESSION_CACHE_DATABASE } from '../config';
import type { Chat, Contact, Me, Message, PublicUser } from '../model/types';

/**
 * What a warm start paints before the server answers (issue 13): one record per signed-in person, in this
 * browser's IndexedDB. It is a copy of what the server said, never the truth: the fresh list replaces it.
 */
export interface CachedSession {
  userId: number;
  savedAt: number;
  me: Me;
  chats: Chat[];
  users: PublicUser[];
  contacts: Contact[];
  /** The newest stored messages of recently opened chats, oldest first in each; the most recent chat first. */
  threads: CachedThread[];
}

export interface CachedThread {
  chatId: number;
  messages: Message[];
}

interface CacheSchema extends DBSchema {
  sessions: { key: number; value: CachedSession };
}

type UpgradeTransaction = IDBPTransaction<CacheSchema, 'sessions'[], 'versionchange'>;

export const CACHE_DATABASE = SESSION_CACHE_DATABASE;

/**
 * Each entry upgrades a cache written by the version before it; the database's version is their count. A change
 * of what a record holds that old records cannot be read as adds an entry that converts them — or clears the
 * store, which costs one cold start and nothing else.
 */
const migrations: ((db: IDBPDatabase<CacheSchema>, transaction: UpgradeTransaction) => void)[] = [
  (db) => {
    db.createObjectStore('sessions', { keyPath: 'userId' });
  },
];

export const CACHE_VERSION = migrations.length;

let opening: Promise<IDBPDatabase<CacheSchema> | null> | null = null;

function open(): Promise<IDBPDatabase<CacheSchema>> {
  return openDB<CacheSchema>(CACHE_DATABASE, CACHE_VERSION, {
    upgrade(db, oldVersion, _newVersion, transaction) {
      for (const migrate of migrations.slice(oldVersion)) migrate(db, transaction);
    },
    // Another tab of a newer build wants to upgrade: let it, this tab reopens on its next use.
    blocking() {
      void database().then((db) => db?.close());
      opening = null;
    },
  });
}

/** The open database, or null where there is none to have (no IndexedDB, private mode, a failing disk). */
function database(): Promise<IDBPDatabase<CacheSchema> | null> {
  opening ??= (async (): Promise<IDBPDatabase<CacheSchema> | null> => {
    if (typeof indexedDB === 'undefined') return null;
    try {
      return await open();
    } catch (error) {
      // A cache written by a newer build (the app was rolled back) cannot be opened at this version: drop it.
      if (error instanceof DOMException && error.name === 'VersionError') {
        try {
          await deleteDB(CACHE_DATABASE);
          return await open();
        } catch {
          return null;
        }
      }
      return null;
    }
  })().then((db) => {
    if (!db) opening = null; // asked again next time rather than given up on for the page's life
    return db;
  });
  return opening;
}

const isArray = (value: unknown): value is unknown[] => Array.isArray(value);
const hasNumberId = (value: unknown): boolean => typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'number';

/** Whether a stored record has the shape this build reads; anything else is dropped, never shown half. */
function isReadable(record: unknown, userId: number): record is CachedSession {
  if (typeof record !== 'object' || record === null) return false;
  const candidate = record as Partial<CachedSession>;
  return (
    candidate.userId === userId &&
    hasNumberId(candidate.me) &&
    candidate.me!.id === userId &&
    isArray(candidate.chats) &&
    candidate.chats.every((chat) => hasNumberId(chat) && isArray(chat.participants)) &&
    isArray(candidate.users) &&
    candidate.users.every(hasNumberId) &&
    isArray(candidate.contacts) &&
    candidate.contacts.every(hasNumberId) &&
    isArray(candidate.threads) &&
    candidate.threads.every((thread) => typeof thread?.chatId === 'number' && isArray(thread.messages) && thread.messages.every(hasNumberId))
  );
}

export const sessionCache = {
  /** The person's cached session, or null when there is none that this build can read (a bad one is deleted). */
  async read(userId: number): Promise<CachedSession | null> {
    const db = await database();
    if (!db) return null;
    try {
      const record: unknown = await db.get('sessions', userId);
      if (record === undefined) return null;
      if (isReadable(record, userId)) return record;
      await db.delete('sessions', userId);
      return null;
    } catch {
      return null;
    }
  },
  async write(record: CachedSession): Promise<void> {
    const db = await database();
    if (!db) return;
    try {
      await db.put('sessions', record);
    } catch {
      // A full quota or a closing database: the next save tries again, a cold start is the worst case.
    }
  },
  /**
   * Forgets every cached session (sign-out, a session ended by the server, another sign-in). Issued after any
   * write already under way, so nothing written before it survives.
   */
  async clear(): Promise<void> {
    const db = await database();
    if (!db) return;
    try {
      await db.clear('sessions');
    } catch {
      // Nothing more can be done here; the next sign-in's first save replaces the record of the same person.
    }
  },
  /** Closes the connection (tests open and delete databases between cases). */
  async close(): Promise<void> {
    const db = await opening;
    opening = null;
    db?.close();
  },
};
