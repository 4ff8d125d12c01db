/**
 * RFC 9651 (Structured Field Values for HTTP) Dictionary parsing, on bytes, as the AI preference vocabulary requires
 * (draft-ietf-aipref-vocab, "Processing Algorithm"): the input is a `bin` string (one char per byte, see
 * `parse/input.ts`), so a byte >= 0x80 is a char >= 0x80 and fails wherever the grammar allows only ASCII. Every bare
 * item type is parsed (so that a well-formed value elsewhere in the dictionary cannot make it fail), but only what the
 * vocabulary reads is kept: each member's type, its token text, and its parameter keys.
 */

/** The type of a dictionary member's value. */
export type SfType =
  | 'token'
  | 'string'
  | 'integer'
  | 'decimal'
  | 'boolean'
  | 'byte-sequence'
  | 'date'
  | 'display-string'
  | 'inner-list';

/** One member of a parsed dictionary. */
export interface SfMember {
  readonly type: SfType;
  /** The token's text when `type` is `token`, else null. */
  readonly token: string | null;
  /** The member's parameter keys, in order. */
  readonly params: readonly string[];
}

/** Why a dictionary did not parse. */
export interface SfError {
  /** Offset of the failure, from the start of the parsed range. */
  readonly at: number;
  readonly reason: string;
}

/** A parsed dictionary (the last value of a repeated key wins), or why it failed. */
export type SfResult =
  | { readonly ok: true; readonly members: Map<string, SfMember> }
  | ({ readonly ok: false } & SfError);

class Fail extends Error {
  constructor(
    readonly at: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

const TCHAR_PUNCT = "!#$%&'*+-.^_`|~";

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
function isAlpha(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}
function isLcAlpha(c: number): boolean {
  return c >= 0x61 && c <= 0x7a;
}
function isTchar(c: number): boolean {
  return isAlpha(c) || isDigit(c) || (c < 0x80 && TCHAR_PUNCT.includes(String.fromCharCode(c)));
}
function isBase64(c: number): boolean {
  return isAlpha(c) || isDigit(c) || c === 0x2b || c === 0x2f || c === 0x3d;
}

/** A cursor over `[pos, end)` of a bin string. */
class Reader {
  pos: number;
  constructor(
    readonly bin: string,
    readonly start: number,
    readonly end: number,
  ) {
    this.pos = start;
  }
  get done(): boolean {
    return this.pos >= this.end;
  }
  peek(): number {
    return this.pos < this.end ? this.bin.charCodeAt(this.pos) : -1;
  }
  fail(reason: string): never {
    throw new Fail(this.pos - this.start, reason);
  }
  skipSp(): void {
    while (this.peek() === 0x20) this.pos++;
  }
  skipOws(): void {
    for (let c = this.peek(); c === 0x20 || c === 0x09; c = this.peek()) this.pos++;
  }
}

function parseKey(r: Reader): string {
  const first = r.peek();
  if (!isLcAlpha(first) && first !== 0x2a) {
    r.fail(isAlpha(first) ? 'a key must be lower-case' : 'expected a key (a lower-case letter or "*")');
  }
  const from = r.pos;
  for (
    let c = r.peek();
    isLcAlpha(c) || isDigit(c) || c === 0x5f || c === 0x2d || c === 0x2e || c === 0x2a;
    c = r.peek()
  )
    r.pos++;
  // An upper-case letter inside a key ends it, and the next check fails: say why.
  if (isAlpha(r.peek())) r.fail('a key must be lower-case');
  return r.bin.slice(from, r.pos);
}

function parseNumber(r: Reader): 'integer' | 'decimal' {
  if (r.peek() === 0x2d) r.pos++;
  if (!isDigit(r.peek())) r.fail('expected a digit');
  let decimal = false;
  let digits = 0;
  let fraction = 0;
  for (let c = r.peek(); c >= 0; c = r.peek()) {
    if (isDigit(c)) {
      digits++;
      if (decimal) fraction++;
      r.pos++;
    } else if (c === 0x2e && !decimal) {
      if (digits > 12) r.fail('a decimal has at most 12 integer digits');
      decimal = true;
      r.pos++;
    } else break;
    if (!decimal && digits > 15) r.fail('an integer has at most 15 digits');
    if (decimal && digits > 15) r.fail('a decimal has at most 15 digits');
  }
  if (decimal && fraction === 0) r.fail('a decimal needs digits after "."');
  if (fraction > 3) r.fail('a decimal has at most 3 fractional digits');
  return decimal ? 'decimal' : 'integer';
}

function parseString(r: Reader): void {
  r.pos++;
  while (!r.done) {
    const c = r.peek();
    r.pos++;
    if (c === 0x5c) {
      const next = r.peek();
      if (next !== 0x22 && next !== 0x5c) r.fail('only \\" and \\\\ are escapes in a string');
      r.pos++;
    } else if (c === 0x22) return;
    else if (c < 0x20 || c >= 0x7f) {
      r.pos--;
      r.fail('a string holds printable ASCII only');
    }
  }
  r.fail('unterminated string');
}

function parseDisplayString(r: Reader): void {
  r.pos++;
  if (r.peek() !== 0x22) r.fail('expected \'"\' after "%"');
  r.pos++;
  const bytes: number[] = [];
  const hex = (c: number): number => (isDigit(c) ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1);
  while (!r.done) {
    const c = r.peek();
    if (c < 0x20 || c >= 0x7f) r.fail('a display string holds printable ASCII only');
    r.pos++;
    if (c === 0x25) {
      const hi = hex(r.peek());
      const lo = hex(r.bin.charCodeAt(r.pos + 1));
      if (hi < 0 || lo < 0 || r.pos + 1 >= r.end) r.fail('"%" must be followed by two lower-case hex digits');
      bytes.push(hi * 16 + lo);
      r.pos += 2;
    } else if (c === 0x22) {
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array(bytes));
      } catch {
        r.fail('a display string must be valid UTF-8');
      }
      return;
    } else bytes.push(c);
  }
  r.fail('unterminated display string');
}

function parseBareItem(r: Reader): { type: SfType; token: string | null } {
  const c = r.peek();
  if (c === 0x2d || isDigit(c)) return { type: parseNumber(r), token: null };
  if (c === 0x22) {
    parseString(r);
    return { type: 'string', token: null };
  }
  if (c === 0x2a || isAlpha(c)) {
    const from = r.pos;
    for (let t = r.peek(); t >= 0 && (isTchar(t) || t === 0x3a || t === 0x2f); t = r.peek()) r.pos++;
    return { type: 'token', token: r.bin.slice(from, r.pos) };
  }
  if (c === 0x3a) {
    r.pos++;
    for (let b = r.peek(); b !== 0x3a; b = r.peek()) {
      if (b < 0 || !isBase64(b)) r.fail(b < 0 ? 'unterminated byte sequence' : 'not a base64 character');
      r.pos++;
    }
    r.pos++;
    return { type: 'byte-sequence', token: null };
  }
  if (c === 0x3f) {
    r.pos++;
    const b = r.peek();
    if (b !== 0x30 && b !== 0x31) r.fail('a boolean is ?0 or ?1');
    r.pos++;
    return { type: 'boolean', token: null };
  }
  if (c === 0x40) {
    r.pos++;
    if (parseNumber(r) !== 'integer') r.fail('a date is an integer');
    return { type: 'date', token: null };
  }
  if (c === 0x25) {
    parseDisplayString(r);
    return { type: 'display-string', token: null };
  }
  return r.fail(c < 0 ? 'expected a value' : 'not the start of a value');
}

function parseParameters(r: Reader): string[] {
  const keys: string[] = [];
  while (r.peek() === 0x3b) {
    r.pos++;
    r.skipSp();
    const key = parseKey(r);
    if (r.peek() === 0x3d) {
      r.pos++;
      parseBareItem(r);
    }
    if (!keys.includes(key)) keys.push(key);
  }
  return keys;
}

function parseInnerList(r: Reader): void {
  r.pos++;
  for (;;) {
    r.skipSp();
    if (r.done) r.fail('unterminated inner list');
    if (r.peek() === 0x29) {
      r.pos++;
      return;
    }
    parseBareItem(r);
    parseParameters(r);
    const c = r.peek();
    if (c < 0) r.fail('unterminated inner list');
    if (c !== 0x20 && c !== 0x29) r.fail('expected " " or ")" in an inner list');
  }
}

function parseMember(r: Reader): SfMember {
  if (r.peek() !== 0x3d) return { type: 'boolean', token: null, params: parseParameters(r) };
  r.pos++;
  if (r.peek() === 0x28) {
    parseInnerList(r);
    return { type: 'inner-list', token: null, params: parseParameters(r) };
  }
  const { type, token } = parseBareItem(r);
  return { type, token, params: parseParameters(r) };
}

/**
 * Parses `[start, end)` of a `bin` string as a Structured Fields Dictionary (RFC 9651 §4.2, top level: leading and
 * trailing spaces allowed). An empty range is an empty dictionary.
 */
export function parseSfDictionary(bin: string, start: number, end: number): SfResult {
  const r = new Reader(bin, start, end);
  const members = new Map<string, SfMember>();
  try {
    r.skipSp();
    while (!r.done) {
      const key = parseKey(r);
      const member = parseMember(r);
      // A repeated key keeps its first place and its last value.
      members.set(key, member);
      r.skipOws();
      if (r.done) break;
      if (r.peek() !== 0x2c) r.fail('expected "," between members');
      r.pos++;
      r.skipOws();
      if (r.done) r.fail('a trailing "," is not allowed');
    }
  } catch (error) {
    if (error instanceof Fail) return { ok: false, at: error.at, reason: error.reason };
    throw error;
  }
  return { ok: true, members };
}
