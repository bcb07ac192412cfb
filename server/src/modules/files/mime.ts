/** Image types a browser may show inline (and that avatars may be): no SVG, which can carry script. */
export const INLINE_IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/**
 * Audio and video a browser plays in its own player, named one by one rather than as `audio/*` and `video/*`: a type
 * no browser knows (`video/x-anything`) is then an attachment like any other, so the stored files' policy (which
 * allows inline styles for the browsers' own viewers) never meets a document a browser might render some other way.
 */
const INLINE_MEDIA_TYPES = new Set([
  'audio/webm',
  'audio/ogg',
  'audio/opus',
  'audio/mpeg',
  'audio/mp4',
  'audio/aac',
  'audio/flac',
  'audio/wav',
  'audio/wave',
  'audio/x-wav',
  'audio/x-m4a',
  'video/webm',
  'video/ogg',
  'video/mp4',
  'video/quicktime',
]);

/** Whether `/receive` may show this type inline; everything else is served as an attachment. */
export function isInlineType(mime: string): boolean {
  return INLINE_IMAGE_TYPES.has(mime) || INLINE_MEDIA_TYPES.has(mime);
}

/**
 * A stored file opened as a page of its own (a picture, a recording or a video in a new tab) runs nothing and
 * loads nothing but itself. Inline styles: the browser's own viewer of a picture or video styles itself with them
 * (Chromium centres and zooms a picture by style attributes); with no script and every fetch refused they can do
 * nothing else. This is the policy GitHub serves its raw files with (from an origin of their own; ours are served
 * from the app's origin, which is why a file sent as an attachment also never carries its declared type).
 * `sandbox` on top for everything but sound and video.
 */
const STORED_FILE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";
/**
 * Sound and video shown inline (only the types browsers play, `INLINE_MEDIA_TYPES`, with `nosniff`: never rendered
 * as a document of another kind) open as a media document whose player loads the file from this same URL. A
 * sandboxed document (an opaque origin) could not: Chromium's player stayed empty, and `default-src 'none'`
 * refused the load. So `media-src 'self'` and no sandbox, still no script and nothing else fetched; the
 * directives that do not fall back to `default-src` are set instead.
 */
const STORED_MEDIA_POLICY = "default-src 'none'; style-src 'unsafe-inline'; media-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'";

/** The Content-Security-Policy a stored file is served with, shown inline or not. */
export function storedFilePolicy(mime: string, inline: boolean): string {
  return inline && INLINE_MEDIA_TYPES.has(mime) ? STORED_MEDIA_POLICY : STORED_FILE_POLICY;
}

const TOKEN = "[a-z0-9][a-z0-9!#$&^_.+-]{0,63}";
const MIME = new RegExp(`^${TOKEN}/${TOKEN}$`);

/** The declared type, reduced to `type/subtype` in lower case; anything malformed becomes octet-stream. */
export function normaliseMime(declared: string | undefined): string {
  const base = (declared ?? '').split(';')[0]!.trim().toLowerCase();
  return MIME.test(base) ? base : 'application/octet-stream';
}

/** The real type of the common inline images, by their first bytes. */
function sniffImage(head: Buffer): string | null {
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.length >= 6 && (head.subarray(0, 6).toString('latin1') === 'GIF87a' || head.subarray(0, 6).toString('latin1') === 'GIF89a')) return 'image/gif';
  if (head.length >= 12 && head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  return null;
}

/**
 * The type we store: the declared one, except that a file claiming to be a png/jpeg/gif/webp must start like one
 * (else it is kept as octet-stream — never shown inline, never an avatar or an `image` message).
 */
export function storedMime(declared: string | undefined, head: Buffer): string {
  const mime = normaliseMime(declared);
  if (INLINE_IMAGE_TYPES.has(mime)) return sniffImage(head) === mime ? mime : 'application/octet-stream';
  return mime;
}

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
  'audio/webm': 'webm',
  'audio/ogg': 'ogg',
  'audio/mpeg': 'mp3',
  'audio/mp4': 'm4a',
  'audio/wav': 'wav',
  'video/webm': 'webm',
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
  'application/pdf': 'pdf',
  'text/plain': 'txt',
  'application/zip': 'zip',
};

/** The extension of a stored path, from the stored type (never from the uploaded name); none when unknown. */
export function extensionFor(mime: string): string {
  return EXTENSIONS[mime] ?? '';
}

/** A file name fit to keep and show: no folders, no control characters, at most 255 characters. */
export function cleanFileName(raw: string | undefined): string {
  // Browsers send `"` as %22 and line breaks as %0D/%0A inside a multipart file name (WHATWG form encoding).
  const decoded = (raw ?? '').replace(/%22/g, '"').replace(/%0[DA]/gi, '');
  const base = decoded.split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const cleaned = base.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 255);
  return cleaned && cleaned !== '.' && cleaned !== '..' ? cleaned : 'file';
}

/** `Content-Disposition` with the original name: an ASCII fallback and the exact name per RFC 6266 / 5987. */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
