/**
 * URL arguments of the network commands, checked before anything is fetched: the engine decides which URLs have a
 * robots.txt (`robotsTxtUrl`); this turns its refusal into one line, with a hint when a scheme is missing.
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
