import { defineConfig } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_PHONE, STAFF_PHONE, THIRD_ADMIN_PHONE } from './tests/fixtures';

const port = Number(process.env.E2E_PORT ?? 18_080);
const baseURL = `http://localhost:${port}`;
// A fresh embedded database per run: tests never see each other's leftovers from an earlier run.
const dataDir = mkdtempSync(join(tmpdir(), 'msgr-e2e-'));

export default defineConfig({
  testDir: 'tests',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: [['list']],
  outputDir: '.tmp/results',
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      // Root in a container, and a machine whose network is closed: no sandbox, no background chatter.
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        // A fake microphone and camera, granted without a prompt (voice messages; calls later).
        '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
        '--autoplay-policy=no-user-gesture-required',
      ],
    },
  },
  // The production build, started the way `npm start` starts it (after the build step of `npm test`).
  webServer: {
    command: 'node --enable-source-maps ../server/dist/main.js',
    url: `${baseURL}/api/health`,
    timeout: 60_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      OTP_PER_IP_PER_HOUR: '10000',
      ADMIN_PHONES: `${ADMIN_PHONE},${STAFF_PHONE},${THIRD_ADMIN_PHONE}`,
    },
  },
});
