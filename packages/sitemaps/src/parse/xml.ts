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
  return new XmlSitemapParser(emit);
}

/** The record being read: where it started, its fields as written, an Atom entry's best link. */
interface OpenRecord {
  line: number;
  fields: Record<string, string | null>;
  atomLink: string | null;
  atomLinkRank: number;
}

/** The parser of one file: saxes' events turned into raw items, and the bare `&` caught at its own line. */
class XmlSitemapParser implements ContentParser {
  private readonly parser = new SaxesParser({ xmlns: false, position: true });
  /** Namespace bindings, one map per open element that declared any (null otherwise). */
  private readonly scopes: (Map<string, string> | null)[] = [];
  private depth = 0;
  private shape: Shape | null = null;
  private rootNs = '';
  private failed = false;
  private inContainer = false;
  private record: OpenRecord | null = null;
  /** The record field being read, and its text so far. */
  private field: string | null = null;
  private text = '';
  /** The line of the last `&` written (see {@link write}). */
  private ampLine = 0;

  constructor(private readonly emit: (item: RawItem) => void) {
    const parser = this.parser;
    parser.on('opentag', (tag: SaxesTagPlain) => this.open(tag));
    const onText = (chunk: string) => {
      if (this.field !== null && this.text.length <= MAX_FIELD_CHARS) this.text += chunk;
    };
    parser.on('text', onText);
    parser.on('cdata', onText);
    parser.on('closetag', () => this.close());
    parser.on('error', (error: Error) => {
      // saxes prefixes its messages with "line:column: "; the line is reported separately.
      this.fatal('xml-error', `XML is not well-formed: ${error.message.replace(/^\d+:\d+: /, '')}`);
    });
  }

  get line(): number {
    return this.parser.line;
  }

  /**
   * saxes reads an entity reference up to the next ";", however far: a bare "&" (the most common sitemap mistake)
   * would swallow the rest of the file and be reported at its end. So text is written up to each "&", and the
   * reference being read is checked after each write (see {@link writeChecked}).
   */
  write(chunk: string): void {
    let start = 0;
    while (!this.failed) {
      const amp = chunk.indexOf('&', start);
      if (amp < 0) {
        this.writeChecked(chunk.slice(start));
        return;
      }
      this.writeChecked(chunk.slice(start, amp + 1));
      this.ampLine = this.parser.line;
      start = amp + 1;
    }
  }

  end(): void {
    if (this.failed) return;
    this.parser.close();
    if (!this.failed && this.shape === null) this.fatal('not-a-sitemap', 'the file has no root element');
  }

  /**
   * Writes to saxes, then looks at the reference it is reading (saxes keeps it in its private `entity` field; read
   * defensively): characters no entity name has mean the "&" was bare, reported at its own line.
   */
  private writeChecked(text: string): void {
    this.parser.write(text);
    if (this.failed) return;
    const pending = (this.parser as unknown as { entity?: unknown }).entity;
    if (typeof pending === 'string' && pending !== '' && (pending.length > 256 || /[\s<>&"'=/?]/.test(pending))) {
      this.failed = true;
      this.emit({
        kind: 'fatal',
        code: 'xml-error',
        message: 'XML is not well-formed: a bare "&" (write it as "&amp;")',
        line: this.ampLine,
      });
    }
  }

  private fatal(code: 'xml-error' | 'not-a-sitemap', message: string): void {
    if (this.failed) return;
    this.failed = true;
    this.emit({ kind: 'fatal', code, message, line: this.parser.line });
  }

  private resolve(prefix: string): string {
    const key = prefix === '' ? 'xmlns' : `xmlns:${prefix}`;
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const uri = this.scopes[i]?.get(key);
      if (uri !== undefined) return uri;
    }
    return prefix === '' ? '' : `urn:unbound:${prefix}`;
  }

  private open(tag: SaxesTagPlain): void {
    if (this.failed) return;
    this.depth++;
    let scope: Map<string, string> | null = null;
    for (const name in tag.attributes) {
      if (name === 'xmlns' || name.startsWith('xmlns:')) {
        scope ??= new Map();
        scope.set(name, tag.attributes[name]!);
      }
    }
    this.scopes.push(scope);
    const [prefix, local] = split(tag.name);
    const ns = this.resolve(prefix);
    if (this.depth === 1) this.openRoot(tag.name, local, ns);
    else this.openInner(tag, local, ns);
  }

  /** An element below the root: a container, a record, or a field of the record being read. */
  private openInner(tag: SaxesTagPlain, local: string, ns: string): void {
    const shape = this.shape;
    if (shape === null || ns !== this.rootNs) return;
    if (shape.container !== undefined && this.depth === 2 && local === shape.container) {
      this.inContainer = true;
      return;
    }
    if (
      this.depth === shape.recordDepth &&
      local === shape.record &&
      (shape.container === undefined || this.inContainer)
    ) {
      this.record = { line: this.parser.line, fields: {}, atomLink: null, atomLinkRank: 0 };
      return;
    }
    const record = this.record;
    if (record === null || this.depth !== shape.recordDepth + 1) return;
    if (shape.format === 'atom' && local === 'link') {
      // An entry's page is its rel="alternate" link (the default rel); other links are related resources.
      const rel = (tag.attributes.rel ?? 'alternate').trim();
      const href = tag.attributes.href;
      const rank = rel === 'alternate' ? 2 : 0;
      if (href !== undefined && rank > record.atomLinkRank) {
        record.atomLink = href;
        record.atomLinkRank = rank;
      }
      return;
    }
    if (shape.fields.has(local)) {
      this.field = local;
      this.text = '';
    }
  }

  private openRoot(name: string, local: string, ns: string): void {
    const found = SHAPES[local];
    if (found === undefined) {
      this.fatal('not-a-sitemap', `the root element is <${name}>, not <urlset>, <sitemapindex>, <rss> or <feed>`);
      return;
    }
    this.shape = found;
    this.rootNs = ns;
    this.emit({ kind: 'format', format: found.format, namespace: ns === '' ? null : ns, line: this.parser.line });
  }

  private close(): void {
    if (this.failed) return;
    const shape = this.shape;
    if (this.field !== null && this.depth === (shape?.recordDepth ?? 0) + 1) {
      const fields = this.record!.fields;
      if (fields[this.field] === undefined) fields[this.field] = this.text.trim();
      this.field = null;
      this.text = '';
    } else if (this.record !== null && shape !== null && this.depth === shape.recordDepth) {
      this.emit(itemOf(shape.format, this.record));
      this.record = null;
    } else if (shape?.container !== undefined && this.depth === 2) {
      this.inContainer = false;
    }
    this.scopes.pop();
    this.depth--;
  }
}

/** The raw item of a record that has ended, by the file's format. */
function itemOf(format: SitemapFormat, record: OpenRecord): RawItem {
  const get = (name: string) => {
    const v = record.fields[name];
    return v === undefined || v === '' ? null : v;
  };
  const line = record.line;
  switch (format) {
    case 'sitemapindex':
      return { kind: 'sitemap', loc: get('loc'), line };
    case 'urlset':
      return {
        kind: 'url',
        loc: get('loc'),
        lastmod: get('lastmod'),
        changefreq: get('changefreq'),
        priority: get('priority'),
        line,
      };
    case 'rss':
      return { kind: 'url', loc: get('link'), lastmod: get('pubDate'), changefreq: null, priority: null, line };
    default: {
      const link = record.atomLink;
      return {
        kind: 'url',
        loc: link === null || link.trim() === '' ? null : link.trim(),
        lastmod: get('updated') ?? get('published'),
        changefreq: null,
        priority: null,
        line,
      };
    }
  }
}
