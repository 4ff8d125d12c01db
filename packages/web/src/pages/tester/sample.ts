/** What the tester shows before anything is typed or shared: a small file that exercises the main rules. */

export const SAMPLE_ROBOTS_TXT = `# An example: edit it, paste your own, or load a site's live file above.
User-agent: *
Disallow: /private/
Allow: /private/press/
Disallow: /*.pdf$

User-agent: Googlebot-Image
Disallow: /photos/

Sitemap: https://example.com/sitemap.xml
`;

export const SAMPLE_URLS = `https://example.com/
https://example.com/private/report.html
https://example.com/private/press/launch.html
https://example.com/docs/guide.pdf
https://example.com/photos/cat.jpg
`;

export const SAMPLE_CRAWLER = 'Googlebot';
