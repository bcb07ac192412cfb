import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../http/types.js';
import { contractSchema } from '../../http/contract.js';
import { caller } from '../../http/types.js';
import { badRequest, forbidden } from '../../http/errors.js';
import { loadActor } from '../users/actor.js';
import { FilesService, fileTooLarge, uploadLimitMb, type FileInfo, type ServedFile } from './service.js';
import { ReceiveQuery, SpecificFileQuery, fileRoutes as routes } from './schemas.js';

/** Room for the multipart envelope (boundaries, part headers) around the file itself. */
const MULTIPART_OVERHEAD = 64 * 1024;

/**
 * Files: `POST /file/upload` (multipart, field `file`), `POST /file/tokens`, `DELETE /file/delete/all`, and the
 * two public file URLs whose key is a media token: `GET /receive/{path}?token=` and `GET /specific/file`.
 */
export async function filesRoutes(app: App): Promise<void> {
  const files = new FilesService(app.services, app.log);
  // Only this plugin's routes parse multipart bodies. Limits per request are set in the upload route.
  await app.register(multipart, { throwFileSizeLimit: false });

  /** Reads the one multipart file of an upload request and stores it, within the caller's size limit. */
  async function receiveUpload(request: FastifyRequest, folder?: string): Promise<FileInfo> {
    // The limit depends on the role as the database has it now, not as the token says.
    const me = await loadActor(app.services.db, caller(request).id);
    const limitMb = uploadLimitMb(me.role);
    const declared = Number(request.headers['content-length']);
    // A body announced as too large is refused before a byte of it is read.
    if (Number.isFinite(declared) && declared > limitMb * 1024 * 1024 + MULTIPART_OVERHEAD) throw fileTooLarge(limitMb);
    if (!request.isMultipart()) throw badRequest('Send the file as multipart/form-data in the field "file"', 'multipart_required');
    const part = await request.file({
      limits: { fileSize: limitMb * 1024 * 1024, files: 1, fields: 10, parts: 11, fieldSize: 1024, headerPairs: 20 },
      throwFileSizeLimit: false,
    } as Parameters<typeof request.file>[0]);
    if (!part) throw badRequest('No file was sent (multipart field "file")', 'file_required');
    if (part.fieldname !== 'file') {
      part.file.resume();
      throw badRequest('The file goes in the multipart field "file"', 'file_required');
    }
    return files.upload(me.id, part, limitMb, folder);
  }

  // Each JSON answer is serialized by its schema: a field the contract does not name never leaves the server.
  app.post(routes.upload.url, { schema: contractSchema(routes.upload), config: { rateLimit: 'uploads' } }, async (request, reply) =>
    reply.code(201).send({ file: await receiveUpload(request) }),
  );

  // A chunk of a call's audio recording (recording is on for the chat, the uploader took part in the call).
  app.post(routes.meetAudio.url, { schema: contractSchema(routes.meetAudio), config: { rateLimit: 'uploads' } }, async (request, reply) => {
    const { chat_id: chatId, message_id: messageId } = request.query;
    const callId = await app.services.calls.recordableCall(caller(request).id, chatId, messageId);
    if (callId === null) throw forbidden('This call is not being recorded, or you are not in it', 'not_recording');
    const file = await receiveUpload(request, `recordings/${chatId}/${messageId}`);
    if (!file.mime.startsWith('audio/') && file.mime !== 'video/webm') {
      await files.discard(file.path);
      throw badRequest('A call recording must be audio', 'not_audio');
    }
    await app.services.calls.addRecording(callId, caller(request).id, file.path);
    return reply.code(201).send({ file });
  });

  app.post(routes.tokens.url, { schema: contractSchema(routes.tokens) }, async (request) =>
    files.tokens(caller(request).id, request.body.paths, request.body.admin === true),
  );

  app.get(routes.tree.url, { schema: contractSchema(routes.tree) }, async (request) =>
    files.tree(caller(request).id, request.query.path ?? ''),
  );

  app.delete(routes.deleteAll.url, { schema: contractSchema(routes.deleteAll) }, async (request) => files.deleteAll(caller(request).id));

  app.get('/receive/*', { config: { public: true }, schema: { querystring: ReceiveQuery } }, async (request, reply) => {
    const path = (request.params as { '*': string })['*'];
    return send(reply, await files.serve(path, request.query.token, 'auto', request.headers.range));
  });

  app.get('/specific/file', { config: { public: true }, schema: { querystring: SpecificFileQuery } }, async (request, reply) =>
    send(reply, await files.serve(request.query.path, request.query.token, 'attachment', request.headers.range)),
  );

  // Spec §7's admin file URLs: the same files for admin media tokens (`POST /file/tokens {admin: true}`) only.
  app.get('/receive/admin/*', { config: { public: true }, schema: { querystring: ReceiveQuery } }, async (request, reply) => {
    const path = (request.params as { '*': string })['*'];
    return send(reply, await files.serve(path, request.query.token, 'auto', request.headers.range, 'admin'));
  });

  app.get('/specific/admin/file', { config: { public: true }, schema: { querystring: SpecificFileQuery } }, async (request, reply) =>
    send(reply, await files.serve(request.query.path, request.query.token, 'attachment', request.headers.range, 'admin')),
  );
}

function send(reply: FastifyReply, served: ServedFile): FastifyReply {
  reply.code(served.status).headers(served.headers);
  return served.body ? reply.send(served.body) : reply.send();
}
