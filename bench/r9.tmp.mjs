import { readdirSync, readFileSync } from 'node:fs';
import robotsParser from 'robots-parser';
import { compare } from '/work/main/bench/harness.js';

const { parseRobotsTxt } = await import(process.argv[2]);
const dir = '/work/shared/corpus/robots/';
const files = readdirSync(dir).map((f) => new Uint8Array(readFileSync(dir + f)));
const d = new TextDecoder();
const rs = [];
for (let k = 0; k < 3; k++) {
  const r = compare(
    () => {
      for (const f of files) parseRobotsTxt(f);
    },
    () => {
      for (const f of files) robotsParser('https://example.com/robots.txt', d.decode(f));
    },
    { rounds: 21 },
  );
  rs.push(r.ratio.toFixed(2));
}
console.log(rs.join(' '));
