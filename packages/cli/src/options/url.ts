/**
 * URL arguments, checked before anything is read or fetched: for the network commands, the engine decides which URLs
 * have a robots.txt (`robotsTxtUrl`) and this turns its refusal into one line, with a hint when a scheme is missing;
 * for `test` and `explain`, a URL or a path, never a word the reference would read as a host name.
 */

import { RobotsUrlError, robotsTxtUrl } from 'robotskit';
import { CliError } from '../io.js';

/** Checks a URL argument: absolute, with a robots.txt (http, https, ftp). @throws CliError otherwise. */
export function checkUrlArgument(text: string): void {
  try {
    robotsTxtUrl(text);
  } catch (error) {
    if (!(error instanceof RobotsUrlError)) throw error;
    if (error.code === 'unsupported-scheme') throw new CliError(`invalid URL '${text}': ${error.message}`);
    // Suggest a scheme only for what could be a host name (`example.com/x`), not for any text (`not a url`).
    const bare = text.trim();
    const hint = /^[a-z][a-z0-9+.-]*:/i.test(bare)
      ? ''
      : /\s/.test(bare)
        ? ': not a URL (one starts with https:// or http://)'
        : `: it has no scheme (did you mean 'https://${bare}'?)`;
    throw new CliError(`invalid URL '${text}'${hint}`);
  }
}

/**
 * Checks the URL `test` and `explain` decide: an absolute URL (`https://example.com/page`, any scheme, as the
 * reference reads it), a path (`/page`, or `//host/page`), or empty (the reference's runner reads it as `/`). Anything
 * else (`notaurl`, `example.com/page`) would be read as a host name with path `/`, answering for a URL the user did not
 * mean. @throws CliError with a hint.
 */
export function checkDecidedUrl(text: string): void {
  if (text === '' || text.startsWith('/') || /^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return;
  const bare = text.trim();
  const hint =
    bare !== text
      ? 'remove the surrounding whitespace'
      : /^[a-z][a-z0-9+.-]*:/i.test(bare)
        ? `a URL has '//' after its scheme (https://example.com/page)`
        : /\s/.test(bare) || !/[./]/.test(bare)
          ? 'give one such as https://example.com/page, or a path such as /page'
          : `it has no scheme (did you mean 'https://${bare}'?)`;
  throw new CliError(`'${text}' is not a URL: ${hint}`);
}
