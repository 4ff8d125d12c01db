/**
 * A log's lines, streamed: a file or standard input, gzip recognised by its magic bytes (`1f 8b`, whatever the file is
 * called) and inflated through `node:zlib` (concatenated members too, as `logrotate` and `cat a.gz b.gz` make them),
 * cut at line-feed bytes into blocks of whole lines (the reader drops a CR before a line feed) of about 64 KiB. A file,
 * and standard input when the Io has its descriptor, is read 1 MiB at a time into one reused buffer (a stream allocates
 * each chunk and costs more than the reading; a non-blocking standard input is read as its stream).
 */

import { isAscii } from 'node:buffer';
import { read } from 'node:fs';
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { isatty } from 'node:tty';
import { createGunzip } from 'node:zlib';
import { MAX_LINE, OVERLONG } from 'robotskit/logs';
import { CliError, type Io } from '../io.js';

/** Whether bytes start like a gzip member. */
function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

function describeReadError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'it is a directory';
  if (code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR') return 'not a valid gzip file (it starts like one)';
  return error instanceof Error ? error.message : String(error);
}

/** How much is read at a time (the test of chunk edges knows it). */
const CHUNK = 1 << 20;

/**
 * The bytes of a file descriptor, read `CHUNK` at a time into one buffer: a chunk is valid only until the next one is
 * asked for (a stream would allocate each one, and costs more than the reading). `readInto` reads as `fs.read` does.
 */
async function* chunksOf(
  readInto: (buffer: Buffer) => Promise<number>,
  onBytes: (count: number) => void,
): AsyncGenerator<Uint8Array> {
  const buffer = Buffer.allocUnsafe(CHUNK);
  for (;;) {
    const count = await readInto(buffer);
    if (count === 0) return;
    onBytes(count);
    yield buffer.subarray(0, count);
  }
}

/** Whether a read failed only because the descriptor is non-blocking and has nothing yet (a pipe another set so). */
function wouldBlock(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'EAGAIN' || code === 'EWOULDBLOCK';
}

/** Standard input: its descriptor read directly when the Io has one, else its stream. */
async function* stdinBytes(io: Io): AsyncGenerator<Uint8Array> {
  const fd = io.stdinFd;
  if (fd !== undefined) {
    if (isatty(fd)) throw new CliError('logs reads a log from a file or standard input: give a file or pipe one in');
    const readInto = (buffer: Buffer) =>
      new Promise<number>((resolve, reject) =>
        read(fd, buffer, 0, buffer.length, null, (error, count) => (error ? reject(error) : resolve(count))),
      );
    try {
      yield* chunksOf(readInto, () => {});
      return;
    } catch (error) {
      // A non-blocking pipe: the rest is read as a stream, which waits for it.
      if (!wouldBlock(error)) throw error;
    }
  }
  const stream = io.stdinStream?.();
  if (stream !== undefined) {
    if (stream.isTTY === true)
      throw new CliError('logs reads a log from a file or standard input: give a file or pipe one in');
    yield* stream;
  } else yield await io.readStdin();
}

async function* bytesOf(io: Io, path: string, onBytes: (count: number) => void): AsyncGenerator<Uint8Array> {
  if (path === '-') {
    yield* stdinBytes(io);
    return;
  }
  const file = await open(path, 'r');
  try {
    yield* chunksOf(async (buffer) => (await file.read(buffer, 0, buffer.length, null)).bytesRead, onBytes);
  } finally {
    await file.close();
  }
}

/** The bytes, inflated when they start as gzip. */
async function* inflated(source: AsyncGenerator<Uint8Array>): AsyncGenerator<Uint8Array> {
  const first = await source.next();
  if (first.done === true) return;
  if (!isGzip(first.value)) {
    yield first.value;
    yield* source;
    return;
  }
  // The inflater reads ahead: each chunk is copied, as the reader reuses its buffer.
  const whole = Readable.from(
    (async function* () {
      yield Buffer.from(first.value);
      for await (const chunk of source) yield Buffer.from(chunk);
    })(),
    { objectMode: false },
  );
  const gunzip = createGunzip();
  whole.on('error', (error) => gunzip.destroy(error));
  yield* whole.pipe(gunzip) as AsyncIterable<Buffer>;
}

/**
 * The size of the blocks of text yielded: a longer string is allocated in V8's large-object space, each one by a fresh
 * mapping of memory whose pages fault in one by one (reading a log then costs half as much again).
 */
const BLOCK = 64 * 1024;

/** Whether the bytes decode to more than {@link MAX_LINE} characters (checked only when there are that many bytes). */
function tooLong(bytes: Buffer): boolean {
  return bytes.length > MAX_LINE && bytes.toString('utf8').length > MAX_LINE;
}

/**
 * The text of bytes, UTF-8. Bytes all ASCII (most logs) are read as Latin-1, the same text: V8 then keeps a string it
 * searches twice as fast as the one its UTF-8 decoder makes.
 */
function decode(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

/**
 * The lines of a log (`-`: standard input) as blocks of text: whole lines joined by line feeds (a block holds no line
 * end after its last line), so that a reader walks one flat string by positions rather than cutting a string per line
 * (much cheaper per line). A last line without an end is included. A line may end in CR, which the reader drops. A
 * line over 1 MiB is yielded as a block of its own, {@link OVERLONG}; a line in a block may still be longer than
 * {@link MAX_LINE} (the reader treats it as overlong). `onBytes` hears of each chunk of a file's bytes as read
 * (compressed, for gzip), for a progress bar.
 * @throws CliError (exit 2) when the file cannot be read or its gzip is broken, naming the file.
 */
export async function* logBlocks(
  io: Io,
  path: string,
  onBytes: (count: number) => void = () => {},
): AsyncGenerator<string> {
  // Cut as bytes: a line feed byte is never part of a UTF-8 sequence, so each chunk is decoded up to its last line feed
  // in one call (much cheaper than a streaming decoder) and the bytes after it wait for the next chunk.
  let rest: Buffer | null = null;
  let first = true;
  // Inside a line over MAX_LINE: its bytes are dropped up to its end.
  let overlong = false;
  try {
    for await (const chunk of inflated(bytesOf(io, path, onBytes))) {
      let bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      if (first && bytes.length > 0) {
        first = false;
        // A byte order mark is not part of the first line (TextDecoder drops it too).
        if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
      }
      const cut = bytes.lastIndexOf(0x0a);
      if (cut < 0) {
        // No line ends here: kept (copied: the stream may reuse its chunk) until one does, or dropped once too long.
        rest = rest === null ? Buffer.from(bytes) : Buffer.concat([rest, bytes]);
        if (tooLong(rest)) {
          overlong = true;
          rest = null;
        }
        continue;
      }
      let from = 0;
      if (overlong) {
        // The end of the overlong line: dropped, the line reported.
        from = bytes.indexOf(0x0a) + 1;
        overlong = false;
        yield OVERLONG;
      } else if (rest !== null) {
        // The line begun in the chunks before, joined as bytes (a character may be cut between them): a block of its
        // own, so that the bulk of the chunk is decoded where it lies, never copied.
        from = bytes.indexOf(0x0a) + 1;
        yield decode(Buffer.concat([rest, bytes.subarray(0, from - 1)]));
      }
      rest = cut + 1 < bytes.length ? Buffer.from(bytes.subarray(cut + 1)) : null;
      // Decoded in blocks of at most about BLOCK bytes: V8 keeps a string that size where it allocates cheaply.
      while (from <= cut) {
        let to = cut;
        if (cut - from > BLOCK) {
          const before = bytes.lastIndexOf(0x0a, from + BLOCK);
          to = before >= from ? before : bytes.indexOf(0x0a, from + BLOCK);
        }
        yield decode(bytes.subarray(from, to));
        from = to + 1;
      }
      if (rest !== null && tooLong(rest)) {
        overlong = true;
        rest = null;
      }
    }
  } catch (error) {
    if (error instanceof CliError) throw error;
    const name = path === '-' ? 'standard input' : `'${path}'`;
    throw new CliError(`cannot read the log ${name}: ${describeReadError(error)}`, 2, { cause: error });
  }
  if (overlong) yield OVERLONG;
  else if (rest !== null && rest.length > 0) yield rest.toString('utf8');
}
