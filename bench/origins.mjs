/**
 * A separate process serving robots.txt on N ports of 127.0.0.1 (N origins for the server benchmark). Prints the
 * ports as one JSON line once all listen; exits when its stdin closes.
 */

import { createServer } from 'node:http';

const count = Number(process.argv[2] ?? 1000);
const handler = (req, res) => {
  const port = req.socket.localPort;
  res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'max-age=86400' });
  res.end(
    `User-agent: *\nDisallow: /private/${port}\nAllow: /private/${port}/public\n\nSitemap: http://127.0.0.1:${port}/sitemap.xml\n`,
  );
};
const servers = [];
for (let i = 0; i < count; i++) {
  const server = createServer({ keepAlive: true }, handler);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', 511, resolve));
  servers.push(server);
}
process.stdout.write(`${JSON.stringify(servers.map((s) => s.address().port))}\n`);
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
