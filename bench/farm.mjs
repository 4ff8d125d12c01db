/**
 * The origin farm of the scale benchmark: one process serving robots.txt for `count` origins, each its own
 * host:port on a loopback address of its own (127.<band>.x.y, port picked by the system), so no two origins share a
 * host and the ports stay out of each other's way. Every seventh fetch of an origin brings a new revision of its
 * file, so the history holds new versions as well as repeated ones. Prints the origins (`host:port`) as one JSON line
 * once all listen; exits when its stdin closes. Loopback only.
 */

import { createServer } from 'node:http';

const count = Number(process.argv[2] ?? 1000);
const band = Number(process.argv[3] ?? 1);
if (!(count > 0 && count <= 65536)) throw new Error('one farm process serves 1 to 65,536 origins');
const served = new Map();
const handler = (req, res) => {
  const { localAddress, localPort } = req.socket;
  const key = `${localAddress}:${localPort}`;
  const n = (served.get(key) ?? 0) + 1;
  served.set(key, n);
  res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'max-age=86400' });
  res.end(
    `# revision ${Math.floor(n / 7)}\nUser-agent: *\nDisallow: /private/${localPort}\nAllow: /private/${localPort}/public\n\nUser-agent: GPTBot\nDisallow: /\n\nSitemap: http://${key}/sitemap.xml\n`,
  );
};
const origins = [];
for (let i = 0; i < count; i++) {
  const host = `127.${band}.${i >> 8}.${i & 255}`;
  const server = createServer({ keepAlive: true }, handler);
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, 511, resolve);
  });
  origins.push(`${host}:${server.address().port}`);
}
process.stdout.write(`${JSON.stringify(origins)}\n`);
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
