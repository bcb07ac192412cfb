// `npm run bench`: performance figures (not pass/fail); docs/performance.md says how to read them.
//   server: open-loop delivery side by side with Prosody and through 3 nodes + NATS (a ramp to the knee, p99 and loss per step, CPU per
//           message, the server's CPU profile at its ceiling, SQL statements per message), group fan-out, 20 000
//           idle sockets, history pages of a 1 000 000-message chat, a restart under load; send → ack latency,
//           resume replay rate and one person flooding (PGlite, PostgreSQL); the SFU's CPU in calls of 2, 4 and 8
//   client: a 10 000-message chat opened in Chromium — time to the newest message, DOM size while scrolling;
//           the JavaScript a cold visit of /login and of the chat list downloads, compressed, file by file;
//           and call set-up: accept → first decoded remote video frame, p50 and p90 over 10 calls
import { ensureDependencies, buildStale, log, pnpm } from './lib.mjs';
import { ensureTool } from './debian-tools.mjs';

await ensureDependencies();
await buildStale();
log('bench: server delivery and calls (SFU)');
await pnpm(['--filter', '@messenger/server', 'run', 'bench']);
log('bench: long chat and call set-up in Chromium');
const chromium = await ensureTool('chromium');
await pnpm(['--filter', '@messenger/e2e', 'run', 'bench'], { env: { ...process.env, CHROMIUM_PATH: chromium } });
