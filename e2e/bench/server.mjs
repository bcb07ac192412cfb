// What the browser benchmarks share: the production build started on a fresh database (like `npm start`), and
// the few API calls that set a scene up.
import { spawn } from 'node:child_process';
import { chromium } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomInt, randomUUID } from 'node:crypto';
import WebSocket from 'ws';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Starts the server on a random port; `stop()` ends it and removes its data. `BENCH_SERVER_NODE_ARGS` adds Node
 * options, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` for a CPU profile of the server (Node refuses those in
 * NODE_OPTIONS).
 */
export async function startBenchServer() {
  const port = 18_000 + randomInt(0, 900);
  const base = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'msgr-bench-'));
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, join(root, 'server', 'dist', 'main.js')], {
    // Scenes are seeded fast through the API (10 000 messages): the per-person pace limit is lifted for that.
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', OTP_PER_IP_PER_HOUR: '1000', RATE_MESSAGES_PER_10S: '1000000' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = () => {
    child.kill();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(base);
  } catch (error) {
    stop();
    throw error;
  }

  async function api(method, path, { token, body } = {}) {
    const response = await fetch(`${base}/api${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  }

  /** A new person signed in by phone (the dev SMS outbox gives the code): their tokens, id and phone. */
  async function signUp(name) {
    const phone = `+49151${String(randomInt(0, 1e8)).padStart(8, '0')}`;
    await api('POST', '/auth/send-code', { body: { phone } });
    const { code } = await api('GET', `/dev/sms?phone=${encodeURIComponent(phone)}`);
    const { jwt_info } = await api('POST', '/auth/sign-in', { body: { phone, code } });
    await api('PUT', '/user/edit', { token: jwt_info.access_token, body: { name } });
    const { user } = await api('GET', '/user', { token: jwt_info.access_token });
    return { ...jwt_info, id: user.id, phone };
  }

  return { base, api, signUp, stop };
}

async function waitForHealth(base) {
  for (let i = 0; i < 120; i += 1) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('server did not start');
}

/** Debian's Chromium (CHROMIUM_PATH) as every browser benchmark runs it, with any flags the benchmark adds. */
export function launchChromium(extraArgs = []) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', ...extraArgs],
  });
}

/** Sends `count` messages to a chat over one chat socket, a window of them in flight at a time. */
export async function fillChat(base, token, chatId, count) {
  const socket = new WebSocket(`${base.replace('http', 'ws')}/api/chat/socket?token=${encodeURIComponent(token)}`);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  let acked = 0;
  let sent = 0;
  const WINDOW = 50;
  await new Promise((resolve) => {
    const pump = () => {
      while (sent < count && sent - acked < WINDOW) {
        sent += 1;
        const long = sent % 7 === 0 ? ' — a longer line to vary the bubble heights, as real chats do.'.repeat(3) : '';
        socket.send(JSON.stringify({ type: 'send', client_id: randomUUID(), chat_id: chatId, text: `Message ${sent}${long}` }));
      }
    };
    socket.on('message', () => {
      acked += 1;
      if (acked === count) resolve();
      else pump();
    });
    pump();
  });
  socket.close();
}
