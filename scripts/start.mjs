// `npm start`: install what is missing, build what changed, and serve the whole product on one port.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { buildStale, ensureDependencies, log, root } from './lib.mjs';

await ensureDependencies();
await buildStale();

const port = process.env.PORT || '8080';
log(`Starting the server on http://localhost:${port}`);
const server = spawn(process.execPath, ['--enable-source-maps', join(root, 'server', 'dist', 'main.js')], {
  stdio: 'inherit',
  cwd: root,
  env: { ...process.env, PORT: port },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
