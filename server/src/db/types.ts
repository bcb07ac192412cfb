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

export interface TransactionOptions {
  /** Reads that must agree with each other (a list and its seq): one snapshot, no writes. */
  readOnly?: boolean;
  /**
   * Run every prepared statement on its generic plan (`plan_cache_mode = force_generic_plan`, for this transaction
   * only). PostgreSQL otherwise keeps re-planning a statement whose custom plan looks cheaper for the values at
   * hand — for the message writer's statements, on every batch, when the plan never changes. Only for hot
   * statements whose plan does not depend on their values (lookups by key).
   */
  genericPlans?: boolean;
}

export interface Db extends Queryable {
  readonly dialect: 'pglite' | 'postgres';
  /** One transaction per change: commits when `work` resolves, rolls back when it throws. */
  transaction<T>(work: (tx: Tx) => Promise<T>, options?: TransactionOptions): Promise<T>;
  close(): Promise<void>;
}
