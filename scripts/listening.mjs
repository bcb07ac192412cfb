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
