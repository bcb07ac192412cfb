import pg from 'pg';
import { listening } from '../../scripts/listening.mjs';

/** Whether a PostgreSQL answers at `url` within 2 s: benchmarks skip its half with a clear line when not. */
export async function postgresReachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Whether a NATS server accepts connections at `url` (its first server) within 2 s. */
export function natsReachable(url: string): Promise<boolean> {
  return listening(url, 4222);
}
