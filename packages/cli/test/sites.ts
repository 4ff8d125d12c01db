/**
 * Real HTTP servers on 127.0.0.1 for the network commands: each "site" is a server of its own (so an origin of its
 * own, with its own /robots.txt), and every request is counted, with how many were in flight at once.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A running site. */
export interface Site {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** Paths requested, in order. */
  readonly requests: string[];
  /** `User-Agent` headers, in order. */
  readonly agents: string[];
}

/** Servers started by a test file, with counters over all of them. */
export class Sites {
  private readonly servers: { server: Server; sockets: Set<Socket> }[] = [];
  /** Requests being answered now, over every site. */
  inFlight = 0;
  /** The most requests answered at once, over every site. */
  maxInFlight = 0;
  /** Connections open now, over every site. */
  connections = 0;

  /** Starts a site; `handler` answers every request (paths as the test likes). */
  async start(handler: Handler): Promise<Site> {
    const requests: string[] = [];
    const agents: string[] = [];
    const sockets = new Set<Socket>();
    const server = createServer((req, res) => {
      requests.push(req.url ?? '');
      agents.push(String(req.headers['user-agent'] ?? ''));
      this.inFlight++;
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
      let done = false;
      const finish = () => {
        if (!done) {
          done = true;
          this.inFlight--;
        }
      };
      res.on('finish', finish);
      res.on('close', finish);
      handler(req, res);
    });
    server.on('connection', (socket: Socket) => {
      sockets.add(socket);
      this.connections++;
      socket.on('close', () => {
        sockets.delete(socket);
        this.connections--;
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.servers.push({ server, sockets });
    return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, agents };
  }

  /** A site serving fixed answers by path; 404 elsewhere. */
  serve(paths: Record<string, { status?: number; body?: string; headers?: Record<string, string> }>): Promise<Site> {
    return this.start((req, res) => {
      const answer = paths[req.url ?? ''];
      if (answer === undefined) return void res.writeHead(404).end('not found');
      res.writeHead(answer.status ?? 200, { 'content-type': 'text/plain', ...answer.headers }).end(answer.body ?? '');
    });
  }

  /** A port where nothing listens. */
  async closedOrigin(): Promise<string> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return `http://127.0.0.1:${port}`;
  }

  async closeAll(): Promise<void> {
    await Promise.all(
      this.servers.splice(0).map(
        ({ server, sockets }) =>
          new Promise<void>((resolve) => {
            for (const s of sockets) s.destroy();
            server.close(() => resolve());
          }),
      ),
    );
  }
}
