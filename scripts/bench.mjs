// `npm run bench`: performance figures (not pass/fail).
//   server: send → ack and send → recipient latency, concurrent throughput, resume replay rate (PGlite, PostgreSQL);
//           the SFU's CPU and forwarded packets/s in calls of 2, 4 and 8 people publishing audio and video
//   client: a 10 000-message chat opened in Chromium — time to the newest message, DOM size while scrolling
//           and call set-up: accept → first decoded remote video frame, p50 and p90 over 10 calls
import { ensureDependencies, buildStale, log, pnpm } from './lib.mjs';
import { ensureChromium } from './chromium.mjs';

await ensureDependencies();
await buildStale();
log('bench: server delivery and calls (SFU)');
await pnpm(['--filter', '@messenger/server', 'run', 'bench']);
log('bench: long chat and call set-up in Chromium');
const chromium = await ensureChromium();
await pnpm(['--filter', '@messenger/e2e', 'run', 'bench'], { env: { ...process.env, CHROMIUM_PATH: chromium } });
