/**
 * Recognising an HTML page served as robots.txt: a common misconfiguration (a CMS answering every path with its page
 * template, a soft 404, a login wall). Google still reads whatever lines parse; we flag it so tools can say so.
 */

/** Whether a Content-Type names HTML (`text/html`, `application/xhtml+xml`, any parameters). */
export function isHtmlContentType(contentType: string | null): boolean {
  if (contentType === null) return false;
  const type = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return type === 'text/html' || type === 'application/xhtml+xml';
}

/**
 * The tags that mark HTML, the one list both the retrieval's sniffing and the linter's `html-content` rule use: a
 * doctype, or an element name followed by white space, `>` or `/`. A robots.txt line never holds one.
 */
const HTML_TAG = /<(?:!doctype\s+html|(?:html|head|body|meta|title|script|style|link|div)(?=[\s>/]))/i;

/** Where the first HTML tag of `text` is, or null. */
export function findHtmlTag(text: string): { readonly index: number; readonly length: number } | null {
  const match = HTML_TAG.exec(text);
  return match === null ? null : { index: match.index, length: match[0].length };
}

// What HTML documents start with, after optional whitespace: a tag, a comment, or an XML declaration before <html.
const HTML_START = new RegExp(`^(?:<!--|<\\?xml[^>]*>\\s*(?=<html)|(?=${HTML_TAG.source}))`, 'i');

/** How many leading bytes are looked at. */
const SNIFF_BYTES = 1024;

/** Whether a body starts like an HTML document (after a UTF-8 BOM and whitespace). */
export function looksLikeHtml(body: Uint8Array): boolean {
  let start = 0;
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) start = 3;
  while (start < body.length && (body[start] === 0x20 || (body[start]! >= 0x09 && body[start]! <= 0x0d))) start++;
  if (body[start] !== 0x3c) return false;
  let head = '';
  const end = Math.min(body.length, start + SNIFF_BYTES);
  for (let i = start; i < end; i++) head += String.fromCharCode(body[i]!);
  return HTML_START.test(head);
}
