import { type PGlite, parse, protocol } from '@electric-sql/pglite';
import type { Row } from './types.js';

/** Distinct statements kept prepared at most; past it the least recently used one is closed. */
export const MAX_PREPARED = 500;

type Serializer = (value: unknown) => string;
interface Prepared {
  name: string;
  /** Parameter type oids, as PostgreSQL inferred them: each value is serialized for its type. */
  paramTypes: number[];
}

/**
 * Runs statements on PGlite the way node-postgres does on a server with named statements (see postgres.ts):
 * parameterized SQL is parsed and planned once, then each run is one call into PostgreSQL — bind, describe,
 * execute and sync in one buffer. PGlite's own `query` makes six calls per statement and plans it every time;
 * for the message writer's statements that was half of every transaction's time (each plan also asks the file
 * system for the size of every table and index it touches).
 */
export class StatementRunner {
  private readonly prepared = new Map<string, Prepared>();
  /** Statements evicted from the cache, closed on the way of the next call. */
  private toClose: string[] = [];
  private counter = 0;

  constructor(private readonly pg: PGlite) {}

  async query<T extends Row>(sql: string, params: unknown[]): Promise<T[]> {
    const { serialize } = protocol;
    if (params.length === 0) {
      // BEGIN, migrations, several statements at once: the simple protocol, as PGlite's exec.
      const results = parse.parseResults(await this.exec([serialize.query(sql)]), this.parsers());
      return (results.at(-1)?.rows ?? []) as T[];
    }
    const statement = this.prepared.get(sql) ?? (await this.prepare(sql));
    // Least recently used last to go: re-inserting moves it to the end of the map's order.
    this.prepared.delete(sql);
    this.prepared.set(sql, statement);
    const serializers = (this.pg as unknown as { serializers: Record<number, Serializer> }).serializers;
    const values = params.map((value, index) => {
      if (value === null || value === undefined) return null;
      const serializer = serializers[statement.paramTypes[index]!];
      return serializer ? serializer(value) : String(value);
    });
    const messages = await this.exec([
      serialize.bind({ statement: statement.name, values }),
      serialize.describe({ type: 'P' }),
      serialize.execute({}),
    ]);
    return (parse.parseResults(messages, this.parsers())[0]?.rows ?? []) as T[];
  }

  private async prepare(sql: string): Promise<Prepared> {
    const { serialize } = protocol;
    const name = `s${(this.counter += 1)}`;
    const messages = await this.exec([serialize.parse({ name, text: sql }), serialize.describe({ type: 'S', name })]);
    const statement = { name, paramTypes: parse.parseDescribeStatementResults(messages) };
    this.prepared.set(sql, statement);
    if (this.prepared.size > MAX_PREPARED) {
      const [oldest, evicted] = this.prepared.entries().next().value as [string, Prepared];
      this.prepared.delete(oldest);
      this.toClose.push(evicted.name);
    }
    return statement;
  }

  /** Sends the messages, with any pending closes before them and a Sync after, in one call; throws on an error. */
  private async exec(parts: Uint8Array[]) {
    const { serialize } = protocol;
    const closes = this.toClose.map((name) => serialize.close({ type: 'S', name }));
    this.toClose = [];
    const all = [...closes, ...parts, serialize.sync()];
    const buffer = new Uint8Array(all.reduce((length, part) => length + part.length, 0));
    let offset = 0;
    for (const part of all) {
      buffer.set(part, offset);
      offset += part.length;
    }
    const { messages } = await this.pg.execProtocol(buffer);
    // PostgreSQL runs inside this thread and its answer resolves without a turn of the event loop, so a stream
    // of statements (the writer's batches, back to back when a backlog waits) would keep the loop from polling
    // its sockets: libuv accepts one connection per turn, and 400 clients reconnecting after a restart took 3 s
    // to be accepted. One turn per statement lets sockets in between them.
    await new Promise((resolve) => setImmediate(resolve));
    return messages;
  }

  private parsers() {
    return (this.pg as unknown as { parsers: Parameters<typeof parse.parseResults>[1] }).parsers;
  }
}
