/** Real HTTP servers on 127.0.0.1 whose answers a test changes between fetches. */

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the origin answers: status, headers and body. */
export interface Answer {
  readonly status: number;
  readonly headers?: Record<string, string>;
  /** Text (sent as UTF-8) or exact bytes. */
  readonly body?: string | Uint8Array;
}

/** One local origin. `answer` may be changed at any time; `requests` counts what it served. */
export interface LocalOrigin {
  readonly url: string;
  readonly port: number;
  answer: Answer | ((request: IncomingMessage) => Answer);
  requests: string[];
  close(): Promise<void>;
}

/** Starts an origin on 127.0.0.1 at a free port. */
export async function startOrigin(answer: LocalOrigin['answer']): Promise<LocalOrigin> {
  const origin = { answer, requests: [] as string[] } as LocalOrigin & { server: Server };
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    origin.requests.push(request.url ?? '');
    const a = typeof origin.answer === 'function' ? origin.answer(request) : origin.answer;
    response.writeHead(a.status, { 'content-type': 'text/plain', ...a.headers });
    response.end(a.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  Object.assign(origin, {
    server,
    port,
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
  return origin;
}
