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

// What HTML documents start with, after optional whitespace. A robots.txt line never starts with `<`.
const HTML_START = /^<(?:!doctype\s+html|html|head|body|meta|title|script|style|link|!--|\?xml[^>]*>\s*<html)/i;

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
