/**
 * The `batch` bench's sites: one process listening on many ports of 127.0.0.1, each port an origin of its own. Most
 * serve a real robots.txt of the corpus; every 20th answers 404, the next 500, the next redirects to another path.
 * Reports its ports over IPC when ready and counts requests until asked.
 */

import { createServer } from 'node:http';

// The setup comes over IPC (the corpus files are too big for argv), asked for once the listener is in place: a
// message sent before the child listens is lost, which on a busy machine left the bench waiting forever.
const setup = await new Promise((resolve) => {
  process.once('message', resolve);
  process.send({ ready: true });
});
const count = setup.count;
const bodies = setup.bodies.map((b) => Buffer.from(b, 'base64'));
let robotsRequests = 0;
let otherRequests = 0;
const byPort = new Map();

function handler(req, res) {
  const k = byPort.get(req.socket.localPort);
  if (req.url === '/robots.txt') robotsRequests++;
  else otherRequests++;
  const kind = k % 20;
  if (kind === 0) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  if (kind === 1) return void res.writeHead(500, { 'content-type': 'text/plain' }).end('oops');
  if (kind === 2 && req.url === '/robots.txt') return void res.writeHead(301, { location: '/real/robots.txt' }).end();
  const body = bodies.length === 0 ? `User-agent: *\nDisallow: /private/\n` : bodies[k % bodies.length];
  res.writeHead(200, { 'content-type': 'text/plain' }).end(body);
}

const ports = [];
for (let k = 0; k < count; k++) {
  const server = createServer(handler);
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen({ port: 0, host: '127.0.0.1', backlog: 1024 }, resolve));
  const port = server.address().port;
  byPort.set(port, k);
  ports.push(port);
}
process.on('message', (message) => {
  if (message === 'count') {
    process.send({ robotsRequests, otherRequests });
    robotsRequests = 0;
    otherRequests = 0;
  }
});
process.send({ ports });
