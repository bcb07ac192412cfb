// Whether a service answers on TCP: used by `npm test` and `npm run cluster` to find PostgreSQL, NATS and Redis,
// and by the server's tests and benchmarks to skip or require them.
import { connect } from 'node:net';

/** Whether something listens at a service's address (`url`'s first server when it lists several; `defaultPort` when it names none). */
export function listening(url, defaultPort) {
  const { hostname, port } = new URL(url.split(',')[0]);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || defaultPort) });
    socket.setTimeout(2000, () => socket.destroy());
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('close', () => resolve(false));
  });
}

/**
 * The services a cluster of nodes needs (`npm run cluster`, the e2e cluster run), each as `[name, url, default port,
 * variable]`: from the environment, else where this machine runs them.
 */
export function clusterServices(env = process.env) {
  return [
    ['NATS', env.NATS_URL || 'nats://127.0.0.1:4222', 4222, 'NATS_URL'],
    ['Redis', env.REDIS_URL || 'redis://127.0.0.1:6379', 6379, 'REDIS_URL'],
    ['PostgreSQL', env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/messenger_cluster', 5432, 'DATABASE_URL'],
  ];
}

/** Those of `services` (as `clusterServices` gives them) that nothing answers for here. */
export async function notListening(services) {
  const answers = await Promise.all(services.map(([, url, defaultPort]) => listening(url, defaultPort)));
  return services.filter((_, index) => !answers[index]);
}
