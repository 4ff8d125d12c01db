/** What the tester shows before anything is typed or shared: a small file that exercises the main rules. */

import type { TesterState } from './share.js';

const SAMPLE_ROBOTS_TXT = `# An example: edit it, paste your own, or load a site's live file above.
User-agent: *
Disallow: /private/
Allow: /private/press/
Disallow: /*.pdf$

User-agent: Googlebot-Image
Disallow: /photos/

Sitemap: https://example.com/sitemap.xml
`;

const SAMPLE_URLS = `https://example.com/
https://example.com/private/report.html
https://example.com/private/press/launch.html
https://example.com/docs/guide.pdf
https://example.com/photos/cat.jpg
`;

/** The example state: the file above, URLs on example.com, Googlebot, Google's reading. */
export const SAMPLE: TesterState = {
  text: SAMPLE_ROBOTS_TXT,
  urls: SAMPLE_URLS,
  crawler: 'Googlebot',
  dialect: 'google',
};

/** Whether `state` is the example as it opens (then the address needs no hash). */
export function isSample(state: TesterState): boolean {
  return (
    state.text === SAMPLE.text &&
    state.urls === SAMPLE.urls &&
    state.crawler === SAMPLE.crawler &&
    state.dialect === SAMPLE.dialect
  );
}
