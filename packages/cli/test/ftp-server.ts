/**
 * A real FTP server for the tests: Debian's vsftpd, one instance per test on a free port of 127.0.0.1, serving a
 * temporary folder to anonymous users (or refusing them). In CI (`CI=true`) it is required (`.ci/run` installs it);
 * elsewhere its tests are skipped with the reason printed.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const VSFTPD = process.env.ROBOTSKIT_TEST_VSFTPD ?? '/usr/sbin/vsftpd';

function problem(): string | null {
  if (!existsSync(VSFTPD)) return `${VSFTPD} is not installed (apt-get install vsftpd)`;
  if (process.getuid?.() !== 0) return 'vsftpd needs root to serve anonymous users from a chroot';
  return null;
}

/** Why the FTP tests are skipped, or null. */
export const ftpProblem = problem();
if (ftpProblem !== null) {
  if (process.env.CI === 'true') throw new Error(`an FTP server is required in CI: ${ftpProblem}`);
  console.warn(`skipping FTP server tests: ${ftpProblem}`);
}

export interface FtpServer {
  /** `ftp://127.0.0.1:<port>` */
  readonly origin: string;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Starts vsftpd serving `files` (path → content) at the root, to anonymous users unless `anonymous` is false. */
export async function startFtpServer(files: Record<string, string | Uint8Array>, anonymous = true): Promise<FtpServer> {
  const dir = mkdtempSync(join(tmpdir(), 'robotskit-ftp-'));
  const root = join(dir, 'root');
  const empty = join(dir, 'empty');
  mkdirSync(root);
  mkdirSync(empty);
  // The anonymous user reads the root; vsftpd refuses a root it could write to.
  chmodSync(dir, 0o755);
  chmodSync(root, 0o755);
  for (const [name, content] of Object.entries(files)) {
    writeFileSync(join(root, name), content);
    chmodSync(join(root, name), 0o644);
  }
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const config = join(dir, 'vsftpd.conf');
    writeFileSync(
      config,
      [
        'listen=YES',
        'listen_address=127.0.0.1',
        `listen_port=${port}`,
        'background=NO',
        `anonymous_enable=${anonymous ? 'YES' : 'NO'}`,
        `anon_root=${root}`,
        'no_anon_password=YES',
        // vsftpd will not run with both kinds of login off: local users on, with no password any test knows.
        `local_enable=${anonymous ? 'NO' : 'YES'}`,
        'write_enable=NO',
        'seccomp_sandbox=NO',
        `secure_chroot_dir=${empty}`,
        'xferlog_enable=NO',
        'dirmessage_enable=NO',
        '',
      ].join('\n'),
    );
    const child: ChildProcess = spawn(VSFTPD, [config], { stdio: ['ignore', 'ignore', 'pipe'] });
    let exited = false;
    let stderr = '';
    child.stderr!.on('data', (d) => {
      stderr += d;
    });
    const gone = new Promise<void>((resolve) =>
      child.once('exit', () => {
        exited = true;
        resolve();
      }),
    );
    // Wait until it listens, however long that takes; a port taken meanwhile makes it exit, and we try another.
    while (!exited && !(await accepts(port))) await new Promise((resolve) => setTimeout(resolve, 50));
    if (!exited) {
      return {
        origin: `ftp://127.0.0.1:${port}`,
        async close() {
          if (!exited) {
            child.kill('SIGTERM');
            await gone;
          }
          rmSync(dir, { recursive: true, force: true });
        },
      };
    }
    if (attempt >= 4) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`vsftpd did not start: ${stderr}`);
    }
  }
}
