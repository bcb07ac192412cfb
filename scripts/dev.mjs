// `npm run dev`: every client app rebuilding on change, and the server restarting on change.
// Open http://localhost:8080 (PORT changes it); reload the page after a client rebuild.
import { ensureDependencies, buildStale, pnpm } from './lib.mjs';

await ensureDependencies();
await buildStale();
await pnpm(['-r', '--parallel', '--filter', './shell', '--filter', './mf-*', '--filter', './server', 'run', 'dev']);
