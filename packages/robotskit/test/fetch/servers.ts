/**
 * Real servers on 127.0.0.1 for the fetch tests: an HTTP server with a handler per test, and raw TCP servers for the
 * responses Node's HTTP server refuses to produce (broken chunking, resets, silence).
 */

import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type Server, type Socket } from 'node:net';

/** A request as the server saw it. */
interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
}

export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly port: number;
  /** Every request received, in order. */
  readonly requests: SeenRequest[];
  close(): Promise<void>;
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

function tracked(server: Server): () => Promise<void> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
}

/** An HTTP server calling `handler` for every request. */
export async function startHttpServer(
  handler: (req: IncomingMessage, res: ServerResponse, server: TestServer) => void,
): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  let self: TestServer | undefined;
  const server = createHttpServer((req, res) => {
    requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers });
    handler(req, res, self!);
  });
  server.keepAliveTimeout = 500;
  const close = tracked(server);
  const port = await listen(server);
  self = { origin: `http://127.0.0.1:${port}`, port, requests, close };
  return self;
}

/** A raw TCP server: `onRequest` gets the socket once the request's first bytes arrive. */
async function startRawServer(onRequest: (socket: Socket) => void): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  const server = createNetServer((socket) => {
    socket.on('error', () => {});
    socket.once('data', (data) => {
      const [method = '', path = ''] = data.toString('latin1').split(' ');
      requests.push({ method, path, headers: {} });
      onRequest(socket);
    });
  });
  const close = tracked(server);
  const port = await listen(server);
  return { origin: `http://127.0.0.1:${port}`, port, requests, close };
}

/** A port on 127.0.0.1 with nothing listening (bound, then closed). */
export async function closedPort(): Promise<number> {
  const server = createNetServer();
  const port = await listen(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Servers started by a test file, closed after each test. */
export function serverPool() {
  const open: TestServer[] = [];
  return {
    async http(handler: Parameters<typeof startHttpServer>[0]): Promise<TestServer> {
      const s = await startHttpServer(handler);
      open.push(s);
      return s;
    },
    async raw(onRequest: (socket: Socket) => void): Promise<TestServer> {
      const s = await startRawServer(onRequest);
      open.push(s);
      return s;
    },
    async closeAll(): Promise<void> {
      await Promise.all(open.splice(0).map((s) => s.close()));
    },
  };
}

/** A clock the test moves by hand. */
export function fakeClock(start = Date.UTC(2025, 0, 1)) {
  let now = start;
  return {
    now: () => now,
    set(time: number) {
      now = time;
    },
    advance(ms: number) {
      now += ms;
    },
  };
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
