/**
 * The input of a batch run: bytes split into lines a chunk at a time ({@link lineBatchesOf}: every line a chunk
 * completes at once, no promise per line), and {@link InputLines}, the run's cursor over them: the read in progress,
 * the lines read and not yet taken, and which lines get no record (before `fromLine`, blank, `#` comments).
 */

/** Longest line kept; a longer one is cut there (and becomes an error record: no URL is that long). */
const MAX_LINE_CHARS = 1 << 20;

/**
 * Splits a byte stream into lines (`\n`, `\r\n`), decoding UTF-8, and yields every line a chunk completes at once
 * (a batch per chunk, none for a chunk that completes no line); `onBytes` counts what was read. Memory stays bounded
 * by the chunk and {@link MAX_LINE_CHARS}: the rest of a longer line is dropped.
 */
export async function* lineBatchesOf(
  chunks: AsyncIterable<Uint8Array>,
  onBytes?: (bytes: number) => void,
): AsyncGenerator<string[]> {
  const decoder = new TextDecoder();
  let rest = '';
  let cut = false;
  const line = (text: string) => (text.endsWith('\r') ? text.slice(0, -1) : text);
  for await (const chunk of chunks) {
    onBytes?.(chunk.length);
    const text = decoder.decode(chunk, { stream: true });
    const batch: string[] = [];
    let start = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      const piece = text.slice(start, nl);
      start = nl + 1;
      if (cut) {
        cut = false;
        continue;
      }
      batch.push(line(rest === '' ? piece : rest + piece));
      rest = '';
    }
    if (!cut) rest += text.slice(start);
    if (rest.length > MAX_LINE_CHARS) {
      batch.push(rest.slice(0, MAX_LINE_CHARS));
      rest = '';
      cut = true;
    }
    if (batch.length > 0) yield batch;
  }
  rest += decoder.decode();
  if (rest !== '' && !cut) yield [line(rest)];
}

/** {@link lineBatchesOf}, a line at a time. */
export async function* linesOf(
  chunks: AsyncIterable<Uint8Array>,
  onBytes?: (bytes: number) => void,
): AsyncGenerator<string> {
  for await (const batch of lineBatchesOf(chunks, onBytes)) yield* batch;
}

const NO_LINES: readonly string[] = [];
const ignore = (): void => {};

/**
 * The run's cursor over its input: items (a line, or several at once) read from the source one read at a time, and
 * their lines taken one by one, each counted.
 */
export class InputLines {
  /** Input lines taken, skipped ones included: the number of the line taken last. */
  lines = 0;
  private items: readonly string[] = NO_LINES;
  private at = 0;
  private pending: Promise<IteratorResult<string | readonly string[]>> | null = null;
  private ended = false;
  private readonly source: AsyncIterator<string | readonly string[]>;

  constructor(
    source: AsyncIterable<string | readonly string[]>,
    private readonly fromLine: number,
  ) {
    this.source = source[Symbol.asyncIterator]();
  }

  /** Lines already read remain to be taken. */
  get buffered(): boolean {
    return this.at < this.items.length;
  }

  /** A read of the source was asked for and has not been taken yet. */
  get reading(): boolean {
    return this.pending !== null;
  }

  /**
   * The next line read, trimmed: `''` for a line that gets no record (before `fromLine`, blank, a `#` comment), null
   * when every line read has been taken.
   */
  nextLine(): string | null {
    if (this.at >= this.items.length) return null;
    const raw = this.items[this.at++]!;
    if (++this.lines < this.fromLine) return '';
    const text = raw.trim();
    return text.startsWith('#') ? '' : text;
  }

  /** The next read of the source, asked for once (it may outlive a wait for records). */
  read(): Promise<IteratorResult<string | readonly string[]>> {
    this.pending ??= this.source.next();
    return this.pending;
  }

  /** Takes the result of {@link read}: its lines are next. False when the input has ended. */
  load(result: IteratorResult<string | readonly string[]>): boolean {
    this.pending = null;
    if (result.done === true) {
      this.ended = true;
      return false;
    }
    this.items = typeof result.value === 'string' ? [result.value] : result.value;
    this.at = 0;
    return true;
  }

  /** As `for await` would: releases the source when the run leaves before its end (not awaited: a blocked read may never settle). */
  release(): void {
    if (!this.ended) this.source.return?.()?.catch(ignore);
  }
}
