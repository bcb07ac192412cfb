// `npm run bench`: performance figures (not pass/fail). Builds the server if needed, then runs each benchmark.
import { ensureDependencies, buildStale, pnpm } from './lib.mjs';

await ensureDependencies();
await buildStale();
await pnpm(['--filter', '@messenger/server', 'run', 'bench']);
