import { isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * Every stored file's path, as the server makes it: `<yyyy>/<mm>/<32 hex>[.<ext>]`. Nothing else is ever a path:
 * no `..`, no `\`, no `%`, no NUL, nothing absolute — a request for anything else is refused before the disk is
 * touched.
 */
export const FILE_PATH_PATTERN = '^[0-9]{4}/[0-9]{2}/[0-9a-f]{32}(\\.[a-z0-9]{1,8})?$';
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
