// The one database interface the server codes against. Two drivers implement it — embedded PGlite and
// node-postgres — and run the very same SQL, so every query is written once in the PostgreSQL dialect.

export type Row = Record<string, unknown>;

export interface Queryable {
  query<T extends Row = Row>(sql: string, params?: unknown[]): Promise<T[]>;
}

/** A transaction: queries run on one connection between BEGIN and COMMIT. */
export interface Tx extends Queryable {
  /** Runs after COMMIT succeeds (never after a rollback): live delivery hangs off this. */
  afterCommit(callback: () => void): void;
}

export interface Db extends Queryable {
  readonly dialect: 'pglite' | 'postgres';
  /** One transaction per change: commits when `work` resolves, rolls back when it throws. */
  transaction<T>(work: (tx: Tx) => Promise<T>, options?: { readOnly?: boolean }): Promise<T>;
  close(): Promise<void>;
}
