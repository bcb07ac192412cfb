import { connect } from 'node:net';
import pg from 'pg';

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
  const { hostname, port } = new URL(url.split(',')[0]!);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || 4222) });
    socket.setTimeout(2000, () => socket.destroy());
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('close', () => resolve(false));
  });
}
