import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startServer, type TestServer } from './helpers/server.js';
import { resolveUnder } from '../src/modules/files/paths.js';
import { StoragePathError } from '../src/modules/files/storage.js';
import { type Person, mediaTokens, nextEvent, openFlow, pngBytes, privateChat, request, sendFrame, signUp, upload } from './helpers/client.js';

const MB = 1024 * 1024;

/** Every file under the storage root, relative paths. */
async function storedFiles(server: TestServer): Promise<string[]> {
  const entries = await readdir(server.config.filesDir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

async function uploaded(server: TestServer, person: Person, file: { name?: string; type?: string; data?: Buffer | string } = {}): Promise<any> {
  const response = await upload(server, person, file);
  assert.equal(response.status, 201, JSON.stringify(response.body));
  return response.body.file;
}

/**
 * Streams a multipart upload of `bytes` and never finishes it (no closing boundary, no end of body): an answer
 * can only come from a server that decides before reading the whole body.
 */
function unfinishedUpload(server: TestServer, person: Person, bytes: number, declareLength: boolean): Promise<{ status: number; body: any; sent: number }> {
  const boundary = 'XtestBoundaryX';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const headers: Record<string, string> = {
    authorization: `Bearer ${person.token}`,
    'content-type': `multipart/form-data; boundary=${boundary}`,
  };
  if (declareLength) headers['content-length'] = String(head.length + bytes + `\r\n--${boundary}--\r\n`.length);
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method: 'POST', path: '/api/file/upload', headers });
    let sent = 0;
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString() || 'null'), sent });
        req.destroy();
      });
    });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    req.write(head);
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const pump = () => {
      while (!answered && sent < bytes) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
    };
    pump();
  });
}

/** A GET with the path sent exactly as given (fetch would normalise `..` away). */
function rawGet(server: TestServer, path: string): Promise<{ status: number; body: string }> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method: 'GET', path }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end();
  });
}

const receiveUrl = (server: TestServer, path: string, token: string) => `${server.url}/api/receive/${path}?token=${encodeURIComponent(token)}`;

describe('files', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  it('uploads a file under a path the server makes, never from the file name', async () => {
    const anna = await signUp(server);
    const data = pngBytes(300);
    const response = await upload(server, anna, { name: '../../evil/../cat picture.png', type: 'image/png', data });
    assert.equal(response.status, 201);
    const file = response.body.file;
    assert.match(file.path, /^\d{4}\/\d{2}\/[0-9a-f]{32}\.png$/);
    assert.deepEqual([file.name, file.size, file.mime], ['cat picture.png', 300, 'image/png']);
    assert.deepEqual(await readFile(join(server.config.filesDir, file.path)), data);
    const [row] = await server.db.query<{ owner_id: number; original_name: string }>('SELECT owner_id, original_name FROM files WHERE path = $1', [file.path]);
    assert.deepEqual([row!.owner_id, row!.original_name], [anna.id, 'cat picture.png']);

    assert.equal((await upload(server, undefined)).status, 401);
    const wrongField = await upload(server, anna, {}, 'picture');
    assert.deepEqual([wrongField.status, wrongField.body.error], [400, 'file_required']);
    const notMultipart = await request(server, 'POST', '/file/upload', { token: anna.token, body: { file: 'x' } });
    assert.deepEqual([notMultipart.status, notMultipart.body.error], [400, 'multipart_required']);
  });

  it('answers 413 as soon as an upload passes the limit, without the rest of the body, and keeps nothing', async () => {
    const anna = await signUp(server);
    const before = await storedFiles(server);
    const streamed = await unfinishedUpload(server, anna, 12 * MB, false);
    assert.equal(streamed.status, 413);
    assert.deepEqual(streamed.body, { error: 'file_too_large', message: 'Upload failed. Maximum size - 10 MB.' });
    assert.ok(streamed.sent > 10 * MB, 'refused once past the limit');
    // Announced as too large: refused before any of it is read.
    const announced = await unfinishedUpload(server, anna, 12 * MB, true);
    assert.equal(announced.status, 413);
    assert.equal(announced.body.message, 'Upload failed. Maximum size - 10 MB.');
    assert.deepEqual(await storedFiles(server), before, 'no partial file left in storage');
    assert.deepEqual(await server.db.query('SELECT path FROM files WHERE owner_id = $1', [anna.id]), []);
    // Exactly at the limit is fine.
    const atLimit = await upload(server, anna, { name: 'ten.bin', type: 'application/octet-stream', data: Buffer.alloc(10 * MB, 1) });
    assert.equal(atLimit.status, 201);
    assert.equal(atLimit.body.file.size, 10 * MB);
  });

  it('lets role 1 and above upload up to 50 MB (the role as the database has it)', async () => {
    const manager = await signUp(server);
    await server.db.query('UPDATE users SET role = 1 WHERE id = $1', [manager.id]);
    const big = await upload(server, manager, { name: 'big.bin', type: 'application/octet-stream', data: Buffer.alloc(12 * MB, 2) });
    assert.equal(big.status, 201, JSON.stringify(big.body));
    assert.equal(big.body.file.size, 12 * MB);
    const tooBig = await unfinishedUpload(server, manager, 51 * MB, false);
    assert.deepEqual([tooBig.status, tooBig.body.message], [413, 'Upload failed. Maximum size - 50 MB.']);
  });

  it('gives media tokens only for files the caller may see', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const carl = await signUp(server);
    const kept = await uploaded(server, anna);
    const sent = await uploaded(server, anna);
    const avatar = await uploaded(server, anna);
    const groupAvatar = await uploaded(server, anna);
    const chatId = await privateChat(server, anna, boris);
    assert.equal((await sendFrame(server, anna, { chat_id: chatId, message_type: 'image', file_path: sent.path })).type, 'ack');
    const all = [kept.path, sent.path, avatar.path, groupAvatar.path, '../../etc/passwd', '2024/01/0123456789abcdef0123456789abcdef.png'];

    assert.deepEqual(Object.keys(await mediaTokens(server, anna, all)).sort(), [kept.path, sent.path, avatar.path, groupAvatar.path].sort());
    assert.deepEqual(Object.keys(await mediaTokens(server, boris, all)), [sent.path], 'a file of his chat');
    assert.deepEqual(Object.keys(await mediaTokens(server, carl, all)), []);

    // Anyone's avatar may be seen; a group's avatar by its members.
    const edited = await request(server, 'PUT', '/user/edit', { token: anna.token, body: { avatar: avatar.path } });
    assert.equal(edited.body.user.avatar, avatar.path);
    assert.deepEqual(Object.keys(await mediaTokens(server, carl, all)), [avatar.path]);
    const group = await request(server, 'POST', '/chat/create', {
      token: anna.token,
      body: { chat_type: 'group', name: 'G', participants: [boris.id], avatar: groupAvatar.path },
    });
    assert.equal(group.body.chat.avatar, groupAvatar.path);
    assert.ok(Object.keys(await mediaTokens(server, boris, all)).includes(groupAvatar.path));
    assert.ok(!Object.keys(await mediaTokens(server, carl, all)).includes(groupAvatar.path));

    const response = await request(server, 'POST', '/file/tokens', { token: boris.token, body: { paths: [sent.path] } });
    assert.equal(response.body.expires_in, 3600);
    assert.equal((await request(server, 'POST', '/file/tokens', { token: boris.token, body: { paths: Array(101).fill(sent.path) } })).status, 400);
    assert.equal((await request(server, 'POST', '/file/tokens', { body: { paths: [sent.path] } })).status, 401);
  });

  it('accepts only avatars that are images the caller uploaded', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const borisImage = await uploaded(server, boris);
    const annaText = await uploaded(server, anna, { name: 'a.txt', type: 'text/plain', data: 'x' });
    const svg = await uploaded(server, anna, { name: 'a.svg', type: 'image/svg+xml', data: '<svg xmlns="http://www.w3.org/2000/svg"/>' });
    for (const path of [borisImage.path, annaText.path, svg.path, '../../etc/passwd']) {
      const refused = await request(server, 'PUT', '/user/edit', { token: anna.token, body: { avatar: path } });
      assert.deepEqual([refused.status, refused.body.error], [400, 'invalid_avatar'], path);
    }
    const chatId = (await request(server, 'POST', '/chat/create', { token: anna.token, body: { chat_type: 'group', name: 'G', participants: [boris.id] } }))
      .body.chat.id;
    const groupRefused = await request(server, 'PUT', '/chat/edit', { token: anna.token, body: { chat_id: chatId, avatar: borisImage.path } });
    assert.equal(groupRefused.body.error, 'invalid_avatar');
    const own = await uploaded(server, anna);
    const changed = await request(server, 'PUT', '/chat/edit', { token: anna.token, body: { chat_id: chatId, avatar: own.path } });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.equal(changed.body.chat.avatar, own.path);
    assert.equal((await request(server, 'PUT', '/user/edit', { token: anna.token, body: { avatar: null } })).body.user.avatar, null);
  });

  it('serves a file for a good media token, and refuses bad, expired, foreign and misused tokens', async () => {
    const anna = await signUp(server);
    const carl = await signUp(server);
    const data = pngBytes(500);
    const file = await uploaded(server, anna, { data });
    const other = await uploaded(server, anna);
    const token = (await mediaTokens(server, anna, [file.path]))[file.path]!;

    const good = await fetch(receiveUrl(server, file.path, token));
    assert.equal(good.status, 200);
    assert.deepEqual(Buffer.from(await good.arrayBuffer()), data);
    assert.equal(good.headers.get('content-type'), 'image/png');
    assert.equal(good.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(good.headers.get('content-security-policy'), "default-src 'none'; style-src 'unsafe-inline'; sandbox");
    assert.match(good.headers.get('content-disposition')!, /^inline; filename="picture.png"/);
    assert.equal(good.headers.get('accept-ranges'), 'bytes');

    const services = server.app.services;
    const expired = await services.mediaTokens.issue(anna.id, file.path, Math.floor(Date.now() / 1000) - 10);
    const forCarl = await services.mediaTokens.issue(carl.id, file.path); // Carl may not see it
    const refusals: Array<[string, string]> = [
      ['garbage', 'not a token'],
      [expired, 'expired'],
      [(await mediaTokens(server, anna, [other.path]))[other.path]!, 'a token for another path'],
      [forCarl, 'a token of a user who may not see the file'],
      [anna.token, 'an access token'],
      [anna.refresh, 'a refresh token'],
    ];
    for (const [bad, what] of refusals) {
      const response = await fetch(receiveUrl(server, file.path, bad));
      assert.equal(response.status, 401, what);
      assert.equal(((await response.json()) as any).error, 'invalid_media_token', what);
    }
    assert.equal((await fetch(`${server.url}/api/receive/${file.path}`)).status, 400, 'no token');
    // A media token is not an access token.
    assert.equal((await request(server, 'GET', '/user', { token })).status, 401);
    assert.equal((await request(server, 'POST', '/file/tokens', { token, body: { paths: [file.path] } })).status, 401);
    // An unknown (well-formed) path.
    const ghost = '2024/01/0123456789abcdef0123456789abcdef.png';
    const ghostToken = await services.mediaTokens.issue(anna.id, ghost);
    assert.equal((await fetch(receiveUrl(server, ghost, ghostToken))).status, 404);
  });

  it('shows only safe media inline; everything else is an attachment; save-as keeps the original name', async () => {
    const anna = await signUp(server);
    const kinds = [
      { name: 'page.html', type: 'text/html', data: '<script>alert(1)</script>', inline: false },
      { name: 'evil.js', type: 'text/javascript', data: 'alert(1)', inline: false },
      { name: 'logo.svg', type: 'image/svg+xml', data: '<svg onload="alert(1)"/>', inline: false },
      { name: 'fake.png', type: 'image/png', data: '<html>not a png</html>', inline: false },
      { name: 'doc.pdf', type: 'application/pdf', data: '%PDF', inline: false },
      { name: 'song.mp3', type: 'audio/mpeg', data: 'ID3', inline: true },
      { name: 'clip.webm', type: 'video/webm', data: 'webm', inline: true },
      { name: 'voice.ogg', type: 'audio/ogg; codecs=opus', data: 'OggS', inline: true },
      // Audio and video a browser has no player for are attachments, like any unknown type.
      { name: 'odd.bin', type: 'video/x-anything', data: '<html>not a video</html>', inline: false },
      { name: 'odd.mid', type: 'audio/x-midi', data: 'MThd', inline: false },
      { name: 'pic.png', type: 'image/png', data: pngBytes(), inline: true },
    ];
    for (const kind of kinds) {
      const file = await uploaded(server, anna, kind);
      const token = (await mediaTokens(server, anna, [file.path]))[file.path]!;
      const response = await fetch(receiveUrl(server, file.path, token));
      assert.equal(response.status, 200, kind.name);
      assert.equal(response.headers.get('content-disposition')!.split(';')[0], kind.inline ? 'inline' : 'attachment', kind.name);
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
      // Sound and video shown inline play in a tab of their own: a media document loads itself, unsandboxed.
      const policy = kind.inline && /^(audio|video)\//.test(kind.type)
        ? "default-src 'none'; style-src 'unsafe-inline'; media-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'"
        : "default-src 'none'; style-src 'unsafe-inline'; sandbox";
      assert.equal(response.headers.get('content-security-policy'), policy, kind.name);
      // Shown inline as its type; an attachment only as bytes (a script or style sheet uploaded is never one here).
      assert.equal(response.headers.get('content-type'), kind.inline ? kind.type.split(';')[0] : 'application/octet-stream', kind.name);
    }
    const name = 'Отчёт "final";\r\n.pdf';
    const file = await uploaded(server, anna, { name, type: 'application/pdf', data: '%PDF-1.7' });
    assert.equal(file.name, 'Отчёт "final";.pdf', 'control characters dropped');
    const token = (await mediaTokens(server, anna, [file.path]))[file.path]!;
    const saved = await fetch(`${server.url}/api/specific/file?token=${encodeURIComponent(token)}&path=${encodeURIComponent(file.path)}`);
    assert.equal(saved.status, 200);
    const disposition = saved.headers.get('content-disposition')!;
    assert.ok(disposition.startsWith('attachment; filename="'), disposition);
    assert.ok(!/[^\x20-\x7e]/.test(disposition), 'the header is plain ASCII');
    const encoded = /filename\*=UTF-8''(.+)$/.exec(disposition)![1]!;
    assert.equal(decodeURIComponent(encoded), 'Отчёт "final";.pdf');
    assert.equal(saved.headers.get('x-content-type-options'), 'nosniff');
    const image = await uploaded(server, anna);
    const imageToken = (await mediaTokens(server, anna, [image.path]))[image.path]!;
    const imageSaved = await fetch(`${server.url}/api/specific/file?token=${encodeURIComponent(imageToken)}&path=${encodeURIComponent(image.path)}`);
    assert.match(imageSaved.headers.get('content-disposition')!, /^attachment/, 'save-as is always an attachment');
    const wrongPath = await fetch(`${server.url}/api/specific/file?token=${encodeURIComponent(imageToken)}&path=${encodeURIComponent(file.path)}`);
    assert.equal(wrongPath.status, 401);
  });

  it('answers Range requests (seeking)', async () => {
    const anna = await signUp(server);
    const data = Buffer.from(Array.from({ length: 100 }, (_, i) => i));
    const file = await uploaded(server, anna, { name: 'a.ogg', type: 'audio/ogg', data });
    const token = (await mediaTokens(server, anna, [file.path]))[file.path]!;
    const ranged = async (range: string) => fetch(receiveUrl(server, file.path, token), { headers: { range } });
    const first = await ranged('bytes=0-9');
    assert.equal(first.status, 206);
    assert.equal(first.headers.get('content-range'), 'bytes 0-9/100');
    assert.equal(first.headers.get('content-length'), '10');
    assert.deepEqual(Buffer.from(await first.arrayBuffer()), data.subarray(0, 10));
    const tail = await ranged('bytes=-5');
    assert.deepEqual([tail.status, tail.headers.get('content-range')], [206, 'bytes 95-99/100']);
    assert.deepEqual(Buffer.from(await tail.arrayBuffer()), data.subarray(95));
    const open = await ranged('bytes=90-');
    assert.deepEqual(Buffer.from(await open.arrayBuffer()), data.subarray(90));
    const past = await ranged('bytes=100-');
    assert.deepEqual([past.status, past.headers.get('content-range')], [416, 'bytes */100']);
    const whole = await ranged('bytes=0-1,5-6');
    assert.equal(whole.status, 200, 'several ranges: the whole file');
  });

  it('refuses every path that is not one of ours, never serving anything outside the root', async () => {
    const anna = await signUp(server);
    const file = await uploaded(server, anna);
    const token = encodeURIComponent((await mediaTokens(server, anna, [file.path]))[file.path]!);
    const [year, month, name] = file.path.split('/');
    const attempts = [
      `/api/receive/../../../../etc/passwd?token=${token}`,
      `/api/receive/${year}/${month}/../../../../etc/passwd?token=${token}`,
      `/api/receive/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd?token=${token}`,
      `/api/receive/%252e%252e%252f%252e%252e%252fetc%252fpasswd?token=${token}`,
      `/api/receive/..\\..\\..\\etc\\passwd?token=${token}`,
      `/api/receive/..%5c..%5c..%5cetc%5cpasswd?token=${token}`,
      `/api/receive/${file.path}%00.png?token=${token}`,
      `/api/receive/${year}/${month}/${name}%00?token=${token}`,
      `/api/receive//etc/passwd?token=${token}`,
      `/api/receive/%2fetc%2fpasswd?token=${token}`,
      `/api/receive/${year}%2f${month}%2f..%2f..%2f..%2fetc%2fpasswd?token=${token}`,
      `/api/specific/file?token=${token}&path=..%2f..%2f..%2fetc%2fpasswd`,
      `/api/specific/file?token=${token}&path=%2fetc%2fpasswd`,
      `/api/specific/file?token=${token}&path=${year}%2f${month}%2f${name}%00`,
      `/api/specific/file?token=${token}&path=${year}%5c${month}%5c${name}`,
    ];
    for (const path of attempts) {
      const response = await rawGet(server, path);
      assert.ok([400, 404].includes(response.status), `${path} → ${response.status}`);
      assert.ok(!response.body.includes('root:'), path);
    }
    // The real path with the same token still works.
    assert.equal((await rawGet(server, `/api/receive/${file.path}?token=${token}`)).status, 200);
    // The storage itself refuses anything but its own paths, whoever asks.
    const root = server.config.filesDir;
    for (const bad of ['../../etc/passwd', '/etc/passwd', `${year}/${month}/../../../x`, `${file.path}\0`, '..\\x', '']) {
      assert.equal(resolveUnder(root, bad), null, bad);
      assert.throws(() => server.app.services.storage.open(bad), StoragePathError, bad);
    }
    assert.equal(resolveUnder(root, file.path), join(root, file.path));
  });

  it('deletes all of one’s files except the avatar, with the messages carrying them', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const chatId = await privateChat(server, anna, boris);
    const inChat = await uploaded(server, anna);
    const unsent = await uploaded(server, anna, { name: 'n.txt', type: 'text/plain', data: 'x' });
    const avatar = await uploaded(server, anna);
    const borisFile = await uploaded(server, boris);
    await request(server, 'PUT', '/user/edit', { token: anna.token, body: { avatar: avatar.path } });
    const message = (await sendFrame(server, anna, { chat_id: chatId, message_type: 'image', file_path: inChat.path })).message;
    const forwarded = (await sendFrame(server, boris, { chat_id: chatId, forward_message_id: message.id })).message;
    const text = (await sendFrame(server, anna, { chat_id: chatId, text: 'words stay' })).message;
    const oldToken = (await mediaTokens(server, boris, [inChat.path]))[inChat.path]!;
    const borisFlow = await openFlow(server, boris);

    const result = await request(server, 'DELETE', '/file/delete/all', { token: anna.token });
    assert.deepEqual(result.body, { deleted_files: 2, deleted_messages: 2 });
    for (const id of [message.id, forwarded.id]) {
      await nextEvent(borisFlow, (event) => event.event_type === 'message-deleted' && event.additional_info.message_id === id);
    }
    const history = await request(server, 'GET', `/chat/history?chat_id=${chatId}`, { token: boris.token });
    assert.deepEqual(history.body.messages.map((m: any) => m.id), [text.id]);
    const onDisk = await storedFiles(server);
    assert.ok(!onDisk.some((path) => path.endsWith(inChat.path.split('/')[2]!)), 'the bytes are gone');
    assert.ok(!onDisk.some((path) => path.endsWith(unsent.path.split('/')[2]!)));
    assert.ok(onDisk.some((path) => path.endsWith(avatar.path.split('/')[2]!)), 'the avatar stays');
    assert.ok(onDisk.some((path) => path.endsWith(borisFile.path.split('/')[2]!)), 'others’ files stay');
    assert.equal((await fetch(receiveUrl(server, inChat.path, oldToken))).status, 404);
    assert.deepEqual(await mediaTokens(server, anna, [inChat.path, unsent.path]), {});
    assert.deepEqual((await request(server, 'DELETE', '/file/delete/all', { token: anna.token })).body, { deleted_files: 0, deleted_messages: 0 });
    // A deleted file cannot be sent any more.
    assert.equal((await sendFrame(server, anna, { chat_id: chatId, message_type: 'document', file_path: unsent.path })).error, 'file_not_yours');
    borisFlow.close();
  });
});
