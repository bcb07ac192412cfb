import { defineConfig, type PlaywrightTestConfig } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_PHONE, FIFTH_ADMIN_PHONE, FOURTH_ADMIN_PHONE, SIXTH_ADMIN_PHONE, STAFF_PHONE, THIRD_ADMIN_PHONE } from './tests/fixtures';
import { RELAY_BASE_URL, RELAY_PORT, TURN_PORT, TURN_URL } from './tests/relay-server';
import { PUSH_SERVICE_ORIGIN } from './tests/push-service';

const port = Number(process.env.E2E_PORT ?? 18_080);
// E2E_CLUSTER=1: against the product as a cluster (`npm run cluster`: 3 nodes behind HAProxy, NATS, Redis), on a
// PostgreSQL database of the run's own (on DATABASE_URL's server, as the server's tests; the local one by
// default), dropped when the cluster stops. `npm test` runs the chat, groups, calls and staff journeys this way, after the rest of the
// suite against one node.
const cluster = process.env.E2E_CLUSTER === '1';
const clusterPort = Number(process.env.E2E_CLUSTER_PORT ?? 18_090);
const clusterName = `msgr_e2e_cluster_${randomBytes(4).toString('hex')}`;
const clusterDatabase = new URL(process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres');
clusterDatabase.pathname = `/${clusterName}`;
// E2E_BASE_URL: run against a product already running there, started with the environment below, instead of
// starting one; the TURN relay and its relay-only server are still started here.
const external = process.env.E2E_BASE_URL;
const baseURL = external ?? `http://localhost:${cluster ? clusterPort : port}`;
// A fresh embedded database per run: tests never see each other's leftovers from an earlier run.
const dataDir = mkdtempSync(join(tmpdir(), 'msgr-e2e-'));

// Calls through TURN: a coturn of this run's own (`npm test` installs Debian's coturn when missing) and a second
// server whose calls are relay-only through it. The shared secret is new every run.
const turnserver = process.env.TURNSERVER_PATH || '/usr/bin/turnserver';
if (!existsSync(turnserver)) {
  throw new Error(`coturn's turnserver is missing (${turnserver}): run \`npm test -- e2e\` as root, apt-get install coturn, or set TURNSERVER_PATH`);
}
const turnSecret = randomBytes(24).toString('hex');
const relayDir = mkdtempSync(join(tmpdir(), 'msgr-e2e-relay-'));
const turnRelayPorts = process.env.E2E_TURN_RELAY_PORTS ?? '49400-49499';
const [turnMinPort, turnMaxPort] = turnRelayPorts.split('-');
// Every setting on the command line (-n: no turnserver.conf is read), checked against `turnserver -h` of coturn
// 4.6. Loopback only, REST-API credentials (username `<expiry>:<user id>`, HMAC-SHA1 password), no TLS/DTLS
// listeners, no telnet CLI, peers on loopback allowed (tests only: that is where the SFU is), the log to stdout
// (ignored) instead of /var/log, and its pid file and SQLite user database (unused, but always opened) in the
// run's folder rather than /var/run and /var/lib/turn, where a system coturn keeps its own.
const turnArgs = [
  '-n',
  '--listening-ip=127.0.0.1',
  '--relay-ip=127.0.0.1',
  `--listening-port=${TURN_PORT}`,
  `--min-port=${turnMinPort}`,
  `--max-port=${turnMaxPort}`,
  '--use-auth-secret',
  `--static-auth-secret=${turnSecret}`,
  '--realm=messenger.test',
  '--fingerprint',
  '--no-tls',
  '--no-dtls',
  '--no-cli',
  '--allow-loopback-peers',
  '--no-software-attribute',
  '--log-file=stdout',
  `--pidfile=${join(relayDir, 'turnserver.pid')}`,
  `--userdb=${join(relayDir, 'turndb')}`,
];

/** The environment both servers share (the relay one adds its TURN settings). */
const serverEnv = {
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  OTP_PER_IP_PER_HOUR: '10000',
  ADMIN_PHONES: `${ADMIN_PHONE},${STAFF_PHONE},${THIRD_ADMIN_PHONE},${FOURTH_ADMIN_PHONE},${FIFTH_ADMIN_PHONE},${SIXTH_ADMIN_PHONE}`,
  // The run's own push service (tests/push-service.ts) is accepted as a push endpoint.
  PUSH_EXTRA_ORIGINS: PUSH_SERVICE_ORIGIN,
  // Every answer and every live event of the run is checked against the wire contract, server-side: the client is
  // the production build, whose own checks are compiled out.
  CONTRACT_CHECKS: '1',
};
const serverCommand = 'node --enable-source-maps ../server/dist/main.js';

/** The production build, started the way `npm start` starts it (after the build step of `npm test`). */
const appServer: Extract<NonNullable<PlaywrightTestConfig['webServer']>, unknown[]>[number] = {
  name: 'server',
  command: serverCommand,
  url: `${baseURL}/api/health`,
  timeout: 60_000,
  reuseExistingServer: false,
  stdout: 'ignore',
  stderr: 'pipe',
  env: { ...serverEnv, PORT: String(port), DATA_DIR: dataDir },
};

/** The same product as 3 nodes behind HAProxy on a fresh PostgreSQL database (scripts/cluster.mjs). */
const clusterServer: typeof appServer = {
  name: 'cluster',
  command: 'node ../scripts/cluster.mjs',
  url: `${baseURL}/api/health`,
  timeout: 120_000,
  reuseExistingServer: false,
  // Its nodes' warnings and errors, each line with the node's name.
  stdout: 'pipe',
  stderr: 'pipe',
  // On SIGTERM the cluster script stops its nodes, then drops the database.
  gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
  env: {
    ...serverEnv,
    PORT: String(clusterPort),
    CLUSTER_NODE_PORT: String(clusterPort + 1),
    CLUSTER_NAME: clusterName,
    DATABASE_URL: clusterDatabase.toString(),
    CLUSTER_DROP_DATABASE: '1',
    DATA_DIR: dataDir,
  },
};

export default defineConfig({
  testDir: 'tests',
  // Generous for a loaded 2-core machine (another build beside the suite): a test of three people signing up and
  // chatting took just over 60 s there. Tests wait by polling conditions, so a healthy run is no slower for it.
  timeout: 180_000,
  expect: { timeout: 20_000 },
  fullyParallel: false,
  // Two files at a time on one node: a test spends much of its time waiting on sockets, timers and media, and the
  // files share nothing but the server (each signs up its own people). The 57 one-node tests, 2-core machine: 551 s
  // with one worker, 420 s with two, the same CPU time; 526 s and green beside a build loop. The cluster's
  // journeys keep one: their nodes take more of the machine. With two they took 255 s instead of 289 s, but the
  // staff journey failed once in a fresh run, its staff screen refused for want of the messenger's strings (a race
  // in `translationsReady`, fixed on 2026-11-29: i18n-concurrent.test.ts); two again once a few runs show it.
  workers: cluster ? 1 : 2,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: [['list']],
  outputDir: '.tmp/results',
  use: {
    baseURL,
    // A failed test keeps its trace (actions, DOM snapshots, console, network) and a screenshot of the end; not
    // the trace's screencast, which every test pays for as it runs: 6 spec files on 2 workers took 142 s of CPU
    // with it, 121 s without it and 107 s with no trace at all (Chromium and the runner encoding frames).
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: true },
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
        // WebRTC between Chromium and the SFU on loopback (calls).
        '--allow-loopback-in-peer-connection',
        '--disable-features=WebRtcHideLocalIpsWithMdns',
      ],
    },
  },
  webServer: [
    ...(external ? [] : [cluster ? clusterServer : appServer]),
    {
      // Ready once its TCP listener is up (it listens on UDP and TCP). Its stderr only says that SCTP is not
      // supported here; set both to 'pipe' when it does not start.
      name: 'coturn',
      command: [turnserver, ...turnArgs].join(' '),
      port: TURN_PORT,
      timeout: 20_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'ignore',
    },
    {
      name: 'relay server',
      command: serverCommand,
      url: `${RELAY_BASE_URL}/api/health`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        ...serverEnv,
        PORT: String(RELAY_PORT),
        DATA_DIR: join(relayDir, 'data'),
        TURN_URLS: TURN_URL,
        TURN_SECRET: turnSecret,
        CALL_RELAY_ONLY: 'true',
      },
    },
  ],
});
