import { isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * Every stored file's path, as the server makes it: `<yyyy>/<mm>/<32 hex>[.<ext>]`, or for call recordings
 * `recordings/<chat id>/<message id>/<32 hex>[.<ext>]` (so admins find them by call). Nothing else is ever a path:
 * no `..`, no `\`, no `%`, no NUL, nothing absolute — a request for anything else is refused before the disk is
 * touched.
 */
export const FILE_PATH_PATTERN = '^([0-9]{4}/[0-9]{2}|recordings/[1-9][0-9]{0,15}/[1-9][0-9]{0,15})/[0-9a-f]{32}(\\.[a-z0-9]{1,8})?$';
const FILE_PATH = new RegExp(FILE_PATH_PATTERN);

export function isFilePath(path: string): boolean {
  return FILE_PATH.test(path);
}

/**
 * The absolute location of a stored path under `root`, or null when the path is not one of ours or would
 * resolve outside the root (checked twice: the pattern, then the resolved location).
 */
export function resolveUnder(root: string, path: string): string | null {
  if (!isFilePath(path)) return null;
  const base = resolve(root);
  const full = resolve(base, path);
  const rel = relative(base, full);
  if (!rel || rel.startsWith('..') || isAbsolute(rel) || !full.startsWith(base + sep)) return null;
  return full;
}

/**
 * One folder name of the storage tree: letters, digits, `_`, `-` and dots, not starting with a dot. So no `.` or
 * `..`, no hidden names, no `\`, `%`, NUL or anything else that could be read as something else.
 */
const FOLDER_SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

/** A folder path of the storage tree ('' is the root), in the form `a/b` (one trailing `/` tolerated), or null. */
export function normaliseFolder(path: string): string | null {
  if (path === '' || path === '/') return '';
  if (path.length > 200) return null;
  const trimmed = path.endsWith('/') ? path.slice(0, -1) : path;
  const segments = trimmed.split('/');
  return segments.every((segment) => FOLDER_SEGMENT.test(segment)) ? segments.join('/') : null;
}

/**
 * The absolute location of a storage folder under `root`, or null when the path is malformed or would resolve
 * outside the root (checked twice, like files: the form, then the resolved location).
 */
export function resolveFolderUnder(root: string, path: string): string | null {
  const folder = normaliseFolder(path);
  if (folder === null) return null;
  const base = resolve(root);
  if (folder === '') return base;
  const full = resolve(base, folder);
  const rel = relative(base, full);
  if (!rel || rel.startsWith('..') || isAbsolute(rel) || !full.startsWith(base + sep)) return null;
  return full;
}
