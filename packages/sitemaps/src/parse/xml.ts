/**
 * XML sitemaps, sitemap indexes, RSS 2.0 and Atom 1.0 feeds, read with saxes (a streaming, non-validating parser that
 * never reads a DTD or expands entities other than XML's five and character references: no XXE, no billion laughs).
 *
 * Elements are recognised by local name within the root's namespace, so extension elements (`image:loc`,
 * `xhtml:link`, `news:title`) are ignored, and a file with another namespace on its root is still read (with a
 * `wrong-namespace` warning from the caller). The first well-formedness error ends the file; what came before stays.
 */

import { SaxesParser, type SaxesTagPlain } from 'saxes';
import type { SitemapFormat } from '../types.js';
import { type ContentParser, MAX_FIELD_CHARS, type RawItem } from './items.js';

/** The sitemaps.org 0.9 namespace. */
export const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
/** The Atom 1.0 namespace. */
export const ATOM_NS = 'http://www.w3.org/2005/Atom';

interface Shape {
  readonly format: SitemapFormat;
  /** The fields of a record that are read. */
  readonly fields: ReadonlySet<string>;
  /** Depth (root = 1) of the record element and its name. */
  readonly recordDepth: number;
  readonly record: string;
  /** For RSS, the element that must enclose records (`channel`). */
  readonly container?: string;
}

const SHAPES: Readonly<Record<string, Shape>> = {
  urlset: {
    format: 'urlset',
    fields: new Set(['loc', 'lastmod', 'changefreq', 'priority']),
    recordDepth: 2,
    record: 'url',
  },
  sitemapindex: { format: 'sitemapindex', fields: new Set(['loc']), recordDepth: 2, record: 'sitemap' },
  rss: { format: 'rss', fields: new Set(['link', 'pubDate']), recordDepth: 3, record: 'item', container: 'channel' },
  // Atom's link is an empty element with attributes, read on its own.
  feed: { format: 'atom', fields: new Set(['updated', 'published']), recordDepth: 2, record: 'entry' },
};

function split(qname: string): [prefix: string, local: string] {
  const colon = qname.indexOf(':');
  return colon < 0 ? ['', qname] : [qname.slice(0, colon), qname.slice(colon + 1)];
}

/** A streaming XML sitemap parser that pushes {@link RawItem}s to `emit`. */
export function createXmlParser(emit: (item: RawItem) => void): ContentParser {
  const parser = new SaxesParser({ xmlns: false, position: true });
  /** Namespace bindings, one map per open element that declared any (null otherwise). */
  const scopes: (Map<string, string> | null)[] = [];
  let depth = 0;
  let shape: Shape | null = null;
  let rootNs = '';
  let failed = false;
  let inContainer = false;
  // The record being read.
  let inRecord = false;
  let recordLine = 0;
  let fields: Record<string, string | null> = {};
  let field: string | null = null;
  let text = '';
  let atomLink: string | null = null;
  let atomLinkRank = 0;

  const resolve = (prefix: string): string => {
    const key = prefix === '' ? 'xmlns' : `xmlns:${prefix}`;
    for (let i = scopes.length - 1; i >= 0; i--) {
      const uri = scopes[i]?.get(key);
      if (uri !== undefined) return uri;
    }
    return prefix === '' ? '' : `urn:unbound:${prefix}`;
  };

  const fatal = (code: 'xml-error' | 'not-a-sitemap', message: string) => {
    if (failed) return;
    failed = true;
    emit({ kind: 'fatal', code, message, line: parser.line });
  };

  parser.on('opentag', (tag: SaxesTagPlain) => {
    if (failed) return;
    depth++;
    let scope: Map<string, string> | null = null;
    for (const name in tag.attributes) {
      if (name === 'xmlns' || name.startsWith('xmlns:')) {
        scope ??= new Map();
        scope.set(name, tag.attributes[name]!);
      }
    }
    scopes.push(scope);
    const [prefix, local] = split(tag.name);
    const ns = resolve(prefix);
    if (depth === 1) {
      const found = SHAPES[local];
      if (found === undefined) {
        fatal('not-a-sitemap', `the root element is <${tag.name}>, not <urlset>, <sitemapindex>, <rss> or <feed>`);
        return;
      }
      shape = found;
      rootNs = ns;
      emit({ kind: 'format', format: found.format, namespace: ns === '' ? null : ns, line: parser.line });
      return;
    }
    if (shape === null || ns !== rootNs) return;
    if (shape.container !== undefined && depth === 2 && local === shape.container) {
      inContainer = true;
      return;
    }
    if (depth === shape.recordDepth && local === shape.record && (shape.container === undefined || inContainer)) {
      inRecord = true;
      recordLine = parser.line;
      fields = {};
      atomLink = null;
      atomLinkRank = 0;
      return;
    }
    if (!inRecord || depth !== shape.recordDepth + 1) return;
    if (shape.format === 'atom' && local === 'link') {
      // An entry's page is its rel="alternate" link (the default rel); other links are related resources.
      const rel = (tag.attributes.rel ?? 'alternate').trim();
      const href = tag.attributes.href;
      const rank = rel === 'alternate' ? 2 : 0;
      if (href !== undefined && rank > atomLinkRank) {
        atomLink = href;
        atomLinkRank = rank;
      }
      return;
    }
    if (shape.fields.has(local)) {
      field = local;
      text = '';
    }
  });

  const onText = (chunk: string) => {
    if (field !== null && text.length <= MAX_FIELD_CHARS) text += chunk;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);

  parser.on('closetag', () => {
    if (failed) return;
    if (field !== null && depth === (shape?.recordDepth ?? 0) + 1) {
      if (fields[field] === undefined) fields[field] = text.trim();
      field = null;
      text = '';
    } else if (inRecord && shape !== null && depth === shape.recordDepth) {
      inRecord = false;
      const get = (name: string) => {
        const v = fields[name];
        return v === undefined || v === '' ? null : v;
      };
      switch (shape.format) {
        case 'sitemapindex':
          emit({ kind: 'sitemap', loc: get('loc'), line: recordLine });
          break;
        case 'urlset':
          emit({
            kind: 'url',
            loc: get('loc'),
            lastmod: get('lastmod'),
            changefreq: get('changefreq'),
            priority: get('priority'),
            line: recordLine,
          });
          break;
        case 'rss':
          emit({
            kind: 'url',
            loc: get('link'),
            lastmod: get('pubDate'),
            changefreq: null,
            priority: null,
            line: recordLine,
          });
          break;
        default:
          emit({
            kind: 'url',
            loc: atomLink === null || atomLink.trim() === '' ? null : atomLink.trim(),
            lastmod: get('updated') ?? get('published'),
            changefreq: null,
            priority: null,
            line: recordLine,
          });
      }
    } else if (shape?.container !== undefined && depth === 2) {
      inContainer = false;
    }
    scopes.pop();
    depth--;
  });

  parser.on('error', (error: Error) => {
    // saxes prefixes its messages with "line:column: "; the line is reported separately.
    fatal('xml-error', `XML is not well-formed: ${error.message.replace(/^\d+:\d+: /, '')}`);
  });

  // saxes reads an entity reference up to the next ";", however far: a bare "&" (the most common sitemap mistake)
  // would swallow the rest of the file and be reported at its end. So text is written up to each "&", and the
  // reference being read (saxes keeps it in its private `entity` field; read defensively) is checked after each write:
  // characters no entity name has mean the "&" was bare, reported at its own line.
  const internals = parser as unknown as { entity?: unknown };
  let ampLine = 0;
  const bareAmpersand = (): boolean => {
    const pending = internals.entity;
    return typeof pending === 'string' && pending !== '' && (pending.length > 256 || /[\s<>&"'=/?]/.test(pending));
  };
  const writeChecked = (text: string) => {
    parser.write(text);
    if (!failed && bareAmpersand()) {
      failed = true;
      emit({
        kind: 'fatal',
        code: 'xml-error',
        message: 'XML is not well-formed: a bare "&" (write it as "&amp;")',
        line: ampLine,
      });
    }
  };

  return {
    write(chunk: string) {
      let start = 0;
      while (!failed) {
        const amp = chunk.indexOf('&', start);
        if (amp < 0) {
          writeChecked(chunk.slice(start));
          return;
        }
        writeChecked(chunk.slice(start, amp + 1));
        ampLine = parser.line;
        start = amp + 1;
      }
    },
    end() {
      if (failed) return;
      parser.close();
      if (!failed && shape === null) fatal('not-a-sitemap', 'the file has no root element');
    },
    get line() {
      return parser.line;
    },
  };
}
