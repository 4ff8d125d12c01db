/**
 * Google's `GetPathParamsQuery` restated for the tests from its definition, one `find` at a time, with none of the
 * engine's shortcuts: the oracle the engine's URL → path function is held to on every surface.
 */

const npos = -1;

/** The first index at or after `from` of a char in `set`, or -1 (`std::string::find_first_of`). */
function findFirstOf(s: string, set: string, from: number): number {
  for (let i = from; i < s.length; i++) if (set.includes(s[i]!)) return i;
  return npos;
}

/** `a < b` for positions where -1 stands for `npos`, the largest `size_t`. */
function before(a: number, b: number): boolean {
  if (a === npos) return false;
  return b === npos || a < b;
}

/** The path, params and query the reference matches for `url`. */
export function referencePathParamsQuery(url: string): string {
  const searchStart = url.length >= 2 && url[0] === '/' && url[1] === '/' ? 2 : 0;
  const earlyPath = findFirstOf(url, '/?;', searchStart);
  let protocolEnd = url.indexOf('://', searchStart);
  if (before(earlyPath, protocolEnd)) protocolEnd = npos;
  protocolEnd = protocolEnd === npos ? searchStart : protocolEnd + 3;
  const pathStart = findFirstOf(url, '/?;', protocolEnd);
  if (pathStart === npos) return '/';
  const hash = url.indexOf('#', searchStart);
  if (before(hash, pathStart)) return '/';
  const pathEnd = hash === npos ? url.length : hash;
  const path = url.slice(pathStart, pathEnd);
  return url[pathStart] === '/' ? path : `/${path}`;
}
