/**
 * ftp:// robots.txt against a real FTP server on 127.0.0.1 (vsftpd), through the CLI's basic-ftp client: a file →
 * its rules, 550 (no file) → allow all, a refused login or no server → disallow all, as Google reads FTP.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type FtpServer, ftpProblem, startFtpServer } from './ftp-server.js';
import { run } from './helpers.js';
import { Sites } from './sites.js';

const servers: FtpServer[] = [];
const sites = new Sites();
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  await sites.closeAll();
});

async function ftp(files: Record<string, string | Uint8Array>, anonymous = true): Promise<string> {
  const server = await startFtpServer(files, anonymous);
  servers.push(server);
  return server.origin;
}

interface Checked {
  allowed: boolean;
  robotsUrl: string;
  fetch: { status: number | null; outcome: string; error: { kind: string; message: string } | null };
  policy: { mode: string };
}

async function check(url: string): Promise<{ code: number; result: Checked; stderr: string }> {
  const r = await run(['check', '--json', url]);
  return { code: r.code, result: (JSON.parse(r.stdout) as Checked[])[0]!, stderr: r.stderr };
}

describe.skipIf(ftpProblem !== null)('robots.txt over FTP (vsftpd)', () => {
  it('reads the rules of a robots.txt that is there, bytes as served', async () => {
    // A Latin-1 byte in a comment: the file is read as bytes, not text.
    const body = new Uint8Array([
      ...new TextEncoder().encode('# caf'),
      0xe9,
      ...new TextEncoder().encode('\nUser-agent: *\nDisallow: /private/\n'),
    ]);
    const origin = await ftp({ 'robots.txt': body });
    const blocked = await check(`${origin}/private/file.zip`);
    expect(blocked.code).toBe(1);
    expect(blocked.result).toMatchObject({
      allowed: false,
      robotsUrl: `${origin}/robots.txt`,
      fetch: { outcome: 'rules', error: null },
      policy: { mode: 'rules' },
    });
    expect((await check(`${origin}/pub/file.zip`)).result.allowed).toBe(true);
    // In words: no HTTP status to show for a file read over FTP.
    const text = await run(['check', `${origin}/private/file.zip`]);
    expect(text.stdout).toContain(`robots   ${origin}/robots.txt: ${body.length} bytes, `);
    expect(text.stdout).toMatch(/policy {3}rules: robots\.txt fetched at \S+; its rules apply/);
    expect(text.stdout).not.toContain('null');
  });

  it('reads 550 (no such file) as no robots.txt: everything allowed', async () => {
    const origin = await ftp({ 'other.txt': 'x' });
    const r = await check(`${origin}/private/file.zip`);
    expect(r.code).toBe(0);
    expect(r.result).toMatchObject({ allowed: true, fetch: { status: 550, outcome: 'allow-all' } });
    // In the engine's words, as every surface says it.
    expect(r.result.fetch.error?.message).toBe('no such file (FTP 550)');
  });

  it('reads a refused login as a server error: everything disallowed', async () => {
    const origin = await ftp({ 'robots.txt': 'User-agent: *\nAllow: /\n' }, false);
    const r = await check(`${origin}/pub/file.zip`);
    expect(r.result).toMatchObject({ allowed: false, fetch: { status: 530, outcome: 'disallow-all' } });
    expect(r.result.fetch.error?.message).toBe('FTP login refused (530)');
    // The exit status follows the verdict: an unreachable robots.txt blocks, as a 5xx does.
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^robotskit: cannot fetch 'ftp:\/\/127\.0\.0\.1:\d+\/robots\.txt': .*FTP login refused/);
  });

  it('checks ftp URLs in batch, one login per origin', async () => {
    const origin = await ftp({ 'robots.txt': 'User-agent: *\nDisallow: /private/\n' });
    const r = await run(['batch'], { stdin: [`${origin}/private/a`, `${origin}/b`, `${origin}/private/c`].join('\n') });
    expect(r.code).toBe(0);
    const out = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { allowed: boolean; fetch: { outcome: string } });
    expect(out.map((o) => o.allowed)).toEqual([false, true, false]);
    expect(out.every((o) => o.fetch.outcome === 'rules')).toBe(true);
  });
});

describe('robots.txt over FTP without a server', () => {
  it('reads a refused connection as a server error: everything disallowed', async () => {
    const port = new URL(await sites.closedOrigin()).port;
    const r = await check(`ftp://127.0.0.1:${port}/pub/file.zip`);
    expect(r.result).toMatchObject({
      allowed: false,
      fetch: { status: null, outcome: 'disallow-all', error: { kind: 'connect' } },
    });
    expect(r.code).toBe(1);
  });
});
