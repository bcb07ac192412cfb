import { config, Role } from '../config';
import type { FileInfo } from '../model/types';
import { tokenStorage } from '../storage/tokens';
import { api } from './client';
import { ApiError } from './errors';

export interface UploadOptions {
  /** Called with 0…1 as the bytes go out. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  /** Another upload route than the plain one, e.g. `/file/upload/meet-audio?chat_id=…&message_id=…`. */
  path?: string;
}

/** The upload limit for a role (spec §5): 10 MB, 50 MB for managers and above. */
export function uploadLimitMb(role: number): number {
  return role >= Role.manager ? config.uploadLimitStaffMb : config.uploadLimitMb;
}

/**
 * Uploads one file (`POST /api/file/upload`, field `file`) with progress — which fetch cannot report, hence
 * XMLHttpRequest, kept here in the API layer. Too large a file is refused before anything is sent (the server
 * enforces the same limit while the upload streams). A 401 refreshes the token once, like every API call.
 */
export async function uploadFile(file: Blob & { name?: string }, role: number, options: UploadOptions = {}): Promise<FileInfo> {
  const limitMb = uploadLimitMb(role);
  if (file.size > limitMb * 1024 * 1024) {
    throw new ApiError(413, 'file_too_large', `Upload failed. Maximum size - ${limitMb} MB.`);
  }
  const attempt = (token: string | undefined) => send(file, token, options);
  const first = await attempt(tokenStorage.access);
  if (first.status !== 401) return parse(first);
  return parse(await attempt(await api.refreshAccessToken()));
}

interface RawResponse {
  status: number;
  body: string;
}

function send(file: Blob & { name?: string }, token: string | undefined, options: UploadOptions): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    // Cancelled before it went (while the picture was being measured, or a token refreshed): an abort event that
    // has already fired would never reach the listener below.
    if (options.signal?.aborted) {
      reject(new DOMException('The upload was cancelled', 'AbortError'));
      return;
    }
    const request = new XMLHttpRequest();
    request.open('POST', `/api${options.path ?? '/file/upload'}`);
    if (token) request.setRequestHeader('authorization', `Bearer ${token}`);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onProgress?.(event.loaded / event.total);
    };
    request.onload = () => resolve({ status: request.status, body: request.responseText });
    request.onerror = () => reject(new ApiError(0, 'network', 'The server cannot be reached'));
    request.onabort = () => reject(new DOMException('The upload was cancelled', 'AbortError'));
    options.signal?.addEventListener('abort', () => request.abort(), { once: true });
    const form = new FormData();
    form.append('file', file, file.name ?? 'file');
    request.send(form);
  });
}

function parse(response: RawResponse): FileInfo {
  let body: { file?: FileInfo; error?: string; message?: string } = {};
  try {
    body = JSON.parse(response.body);
  } catch {
    // not JSON: fall through to a generic error
  }
  if (response.status >= 200 && response.status < 300 && body.file) return body.file;
  throw new ApiError(response.status, body.error ?? 'upload_failed', body.message ?? 'Failed to upload file');
}
