// Prosody (Debian's package) as the peer of the open-loop benchmark: a server of the run's own, pinned to the
// server's core, plain TCP (no TLS), no rate limits, every chat message archived by mod_mam in Prosody's default
// storage. The people are XMPP clients (xmpp.js) that send each other `<message type="chat">`s.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { client, xml } from '@xmpp/client';
import { PAIRS, rssBytes, type Target } from './driver.js';

const USERS = PAIRS.users;

const DOMAIN = 'bench.local';

export function prosodyInstalled(): boolean {
  // (`prosody --version` waits for a console; the binary being there is enough.)
  return existsSync('/usr/bin/prosody');
}

/** Installs Debian's prosody (as root, with apt-get) when it is missing; false when that is not possible. */
export function ensureProsody(): boolean {
  if (prosodyInstalled()) return true;
  if (process.getuid?.() !== 0) return false;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'prosody'], { stdio: 'inherit', env });
  return prosodyInstalled();
}

type XmppClient = ReturnType<typeof client>;

export class ProsodyTarget implements Target {
  readonly name = 'Prosody 0.12 (mod_mam archiving every message)';
  private child: ChildProcess | null = null;
  private clients: XmppClient[] = [];
  private deliver: (to: number, id: number) => void = () => undefined;
  private readonly dir = mkdtempSync(join(tmpdir(), 'msgr-prosody-'));

  constructor(
    private readonly port: number,
    private readonly serverCpu: number,
  ) {}

  async start(): Promise<void> {
    const data = join(this.dir, 'data');
    const accounts = join(data, DOMAIN.replace(/\./g, '%2e'), 'accounts');
    mkdirSync(accounts, { recursive: true });
    for (let index = 0; index < USERS; index += 1) {
      writeFileSync(join(accounts, `u${index}.dat`), 'return {\n\t["password"] = "bench";\n};\n');
    }
    const config = join(this.dir, 'prosody.cfg.lua');
    writeFileSync(
      config,
      `-- Written by the benchmark for this run only.
run_as_root = true
pidfile = "${join(this.dir, 'prosody.pid')}"
data_path = "${data}"
modules_enabled = { "roster"; "saslauth"; "disco"; "mam"; "ping" }
modules_disabled = { "s2s" }
c2s_ports = { ${this.port} }
c2s_interfaces = { "127.0.0.1" }
s2s_ports = {}
http_ports = {}
https_ports = {}
c2s_require_encryption = false
allow_unencrypted_plain_auth = true
authentication = "internal_plain"
archive_expires_after = "never"
default_archive_policy = true
log = { error = "${join(this.dir, 'prosody.log')}" }
VirtualHost "${DOMAIN}"
`,
    );
    this.child = spawn('taskset', ['-c', String(this.serverCpu), 'prosody', '--config', config, '-F'], { stdio: 'ignore' });
    const deadline = Date.now() + 30_000;
    while (!(await this.listening())) {
      if (Date.now() > deadline || this.child.exitCode !== null) throw new Error('prosody did not start');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    this.clients = await Promise.all(
      Array.from({ length: USERS }, async (_, index) => {
        const xmpp: XmppClient = client({
          service: `xmpp://127.0.0.1:${this.port}`,
          domain: DOMAIN,
          resource: 'b',
          // PLAIN on plain TCP, which xmpp.js only does when asked (loopback, a benchmark's own accounts).
          credentials: (authenticate) => authenticate({ username: `u${index}`, password: 'bench' }, 'PLAIN'),
        });
        xmpp.on('error', () => undefined); // a lost connection shows as lost messages
        xmpp.on('stanza', (stanza) => {
          if (!stanza.is('message')) return;
          const body = stanza.getChildText('body');
          if (body?.startsWith('b:')) this.deliver(index, Number(body.slice(2)));
        });
        await xmpp.start();
        await xmpp.send(xml('presence'));
        return xmpp;
      }),
    );
  }

  private listening(): Promise<boolean> {
    return new Promise((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port: this.port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
  }

  serverPids(): number[] {
    return this.child?.pid === undefined ? [] : [this.child.pid];
  }

  serverRss(): number {
    return this.child?.pid === undefined ? 0 : rssBytes(this.child.pid);
  }

  send(from: number, id: number): void {
    void this.clients[from]!.write(`<message to="u${from ^ 1}@${DOMAIN}" type="chat" id="m${id}"><body>b:${id}</body></message>`);
  }

  onDeliver(deliver: (to: number, id: number) => void): void {
    this.deliver = deliver;
  }

  async close(): Promise<void> {
    // Prosody first: past its knee it still has a backlog to send, and xmpp.js crashes on data that arrives while
    // a client is stopping (its parser already gone) — an uncaught TypeError that ended the whole benchmark.
    const child = this.child;
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    }
    await Promise.all(this.clients.map((xmpp) => xmpp.stop().catch(() => undefined)));
    rmSync(this.dir, { recursive: true, force: true });
  }
}
