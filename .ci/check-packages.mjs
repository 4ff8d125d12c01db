#!/usr/bin/env node
// The packages as a user gets them: packs every workspace (after `npm run build`), installs the tarballs into empty
// projects outside the repository (dependencies from the registry, as `npm install` would fetch them, with
// --engine-strict so a dependency that needs a newer Node fails here), then runs what the README shows:
//   1. the command without the report service: `robotskit --help`, `robotskit lint`, `import('robotskit')`,
//      `robotskit mcp` listing its tools, and `robotskit serve` saying in one line how to add the service;
//   2. with robotskit-server installed too: `robotskit serve` until GET /api/health answers.
// The types are checked twice: their resolution with @arethetypeswrong/cli, and as a strict TypeScript user compiles
// against them (for every published package, an empty project with the tarballs, typescript and a strict tsconfig
// compiles a file that imports every entry of the package; @types/node only where the package needs Node's types).
// Prints the tarball sizes and the installed size of the command without the service. Exit 0 when all passed.
//
// `node .ci/check-packages.mjs [attw] [types] [command] [service]` runs only the steps named (default: all). The
// temporary projects are removed at the end, also on failure (CHECK_PACKAGES_KEEP=1 keeps them, and says where).
// `node .ci/check-packages.mjs pack DIR` only packs the published packages into DIR; `CHECK_PACKAGES_TARBALLS=DIR`
// then checks those tarballs instead of packing again (.ci/run packs first, then runs the checks beside `npm test`,
// whose build rewrites dist/ while the checks install the tarballs).
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'robotskit-packages-'));
const tarballs = join(work, 'tarballs');
mkdirSync(tarballs);
const packOnly = process.argv[2] === 'pack' ? process.argv[3] : undefined;
if (process.argv[2] === 'pack' && !packOnly) {
  process.stderr.write('check-packages: pack needs a folder: node .ci/check-packages.mjs pack DIR\n');
  process.exit(2);
}
const prepacked = process.env.CHECK_PACKAGES_TARBALLS;
const only = new Set(packOnly ? [] : process.argv.slice(2));
const want = (stepName) => only.size === 0 || only.has(stepName);
/** Processes started here, ended with the check whatever happens. */
const children = new Set();
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
  if (process.env.CHECK_PACKAGES_KEEP === '1') process.stdout.write(`check-packages: kept ${work}\n`);
  else rmSync(work, { recursive: true, force: true });
});

// Ended by a signal (.ci/run ends the checks when it is interrupted): the exit handler above still cleans up.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

function step(text) {
  process.stdout.write(`check-packages: ${text}\n`);
}

function fail(text) {
  process.stderr.write(`check-packages: FAILED: ${text}\n`);
  process.exit(1);
}

/** Runs a command; returns its exit code, standard output and standard error (never throws). */
function run(cmd, args, cwd, input) {
  try {
    const stdout = execFileSync(cmd, args, {
      cwd,
      encoding: 'utf8',
      input,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', npm_config_fund: 'false', npm_config_audit: 'false' },
    });
    return { code: 0, stdout, stderr: '' };
  } catch (error) {
    return { code: error.status ?? 2, stdout: String(error.stdout ?? ''), stderr: String(error.stderr ?? error) };
  }
}

function must(result, what) {
  if (result.code !== 0) fail(`${what} exited ${result.code}\n${result.stdout}\n${result.stderr}`);
  return result;
}

function sizeOf(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += sizeOf(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}

const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Installed packages under a node_modules folder, nested ones included. */
function countPackages(modules) {
  let count = 0;
  for (const entry of readdirSync(modules, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const path = join(modules, entry.name);
    if (entry.name.startsWith('@')) {
      count += countPackages(path);
      continue;
    }
    count += 1;
    const nested = join(path, 'node_modules');
    try {
      if (statSync(nested).isDirectory()) count += countPackages(nested);
    } catch {
      // no nested node_modules
    }
  }
  return count;
}

// Pack the published packages (the private web UI, packages/web, ships inside robotskit-server's dist/web).
const PUBLISHED = ['robotskit', 'sitemaps', 'stores', 'server', 'cli'].flatMap((dir) => ['-w', `packages/${dir}`]);
const PACKED_LIST = 'packed.json';
let packed;
let packedIn = tarballs;
if (prepacked) {
  packedIn = prepacked;
  packed = JSON.parse(readFileSync(join(prepacked, PACKED_LIST), 'utf8'));
} else {
  if (packOnly) {
    packedIn = packOnly;
    mkdirSync(packOnly, { recursive: true });
  }
  const output = must(run('npm', ['pack', ...PUBLISHED, '--json', '--pack-destination', packedIn], root), 'npm pack');
  packed = JSON.parse(output.stdout);
  if (packOnly) writeFileSync(join(packOnly, PACKED_LIST), output.stdout);
}
const file = {};
for (const p of packed) {
  file[p.name] = join(packedIn, p.filename);
  step(
    `${p.filename}: ${p.entryCount} files, ${(p.size / 1024).toFixed(0)} kB packed, ${(p.unpackedSize / 1024).toFixed(0)} kB unpacked`,
  );
}
for (const name of ['robotskit', 'robotskit-sitemaps', 'robotskit-stores', 'robotskit-server', 'robotskit-cli']) {
  if (!file[name]) fail(`no tarball for ${name}`);
}

/**
 * An empty project with the tarballs of `packages` installed, and `extra` packages from the registry. `scripts: false`
 * installs without running install scripts (a project that only compiles types needs no native build: better-sqlite3
 * builds from source where its prebuilt binary cannot be downloaded, minutes on a 2-core machine).
 */
function project(name, packages, extra = [], { scripts = true } = {}) {
  const dir = join(work, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name, private: true, type: 'module' }, null, 2)}\n`);
  const specs = [...packages.map((p) => file[p]), ...extra];
  must(
    run(
      'npm',
      [
        'install',
        '--engine-strict',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        ...(scripts ? [] : ['--ignore-scripts']),
        ...specs,
      ],
      dir,
    ),
    `npm install in ${name}`,
  );
  return dir;
}

// Types as a strict TypeScript user compiles against them. `skipLibCheck: false`, so the packages' own declarations
// are compiled too: one that imports a module without types (pg's, before robotskit-stores declared what it uses
// of a pool) fails here with TS7016, as it fails for the user.
const devDependencies = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).devDependencies;
const STRICT_TSCONFIG = {
  compilerOptions: {
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: false,
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    target: 'ES2022',
    noEmit: true,
  },
  files: ['entries.ts'],
};
/**
 * Each published package, the tarballs its project needs, and whether its declarations need Node's own types: the
 * report service's do (Fastify's types are Node's HTTP server); the engine's, the sitemap reader's, the stores' and the
 * command's do not.
 */
const TYPE_PROJECTS = [
  { dir: 'robotskit', install: ['robotskit'], node: false },
  { dir: 'sitemaps', install: ['robotskit', 'robotskit-sitemaps'], node: false },
  { dir: 'stores', install: ['robotskit', 'robotskit-stores'], node: false },
  { dir: 'server', install: ['robotskit', 'robotskit-sitemaps', 'robotskit-server'], node: true },
  { dir: 'cli', install: ['robotskit', 'robotskit-sitemaps', 'robotskit-cli'], node: false },
];

/** Every entry a package exports (`robotskit`, `robotskit/fetch`…), from its package.json. */
function entriesOf(dir) {
  const manifest = JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8'));
  return Object.keys(manifest.exports)
    .filter((key) => key !== './package.json')
    .map((key) => (key === '.' ? manifest.name : `${manifest.name}/${key.slice(2)}`));
}

function checkStrictTypes() {
  for (const { dir, install, node } of TYPE_PROJECTS) {
    const entries = entriesOf(dir);
    const name = install.at(-1);
    const extra = [`typescript@${devDependencies.typescript}`];
    if (node) extra.push(`@types/node@${devDependencies['@types/node']}`);
    const types = project(`types-${dir}`, install, extra, { scripts: false });
    const config = structuredClone(STRICT_TSCONFIG);
    // Without Node's types the project must not pick them up from a dependency that happens to install them.
    config.compilerOptions.types = node ? ['node'] : [];
    writeFileSync(join(types, 'tsconfig.json'), `${JSON.stringify(config, null, 2)}\n`);
    const lines = entries.map((entry, i) => `import * as entry${i} from '${entry}';`);
    lines.push(`export const entries = [${entries.map((_, i) => `entry${i}`).join(', ')}];`);
    writeFileSync(join(types, 'entries.ts'), `${lines.join('\n')}\n`);
    const compiled = run(process.execPath, [join(types, 'node_modules/typescript/bin/tsc'), '-p', types], types);
    if (compiled.code !== 0) {
      fail(
        `a strict TypeScript project cannot compile against ${name} (${entries.join(', ')}):\n${compiled.stdout}${compiled.stderr}`,
      );
    }
    step(
      `${name}: a strict TypeScript project compiles against ${entries.join(', ')}${node ? ' (with @types/node)' : ', without @types/node'}`,
    );
  }
}

// 1. The command alone.
function checkCommand() {
  step('installing robotskit-cli (with robotskit and robotskit-sitemaps) into an empty project');
  const cli = project('cli-only', ['robotskit', 'robotskit-sitemaps', 'robotskit-cli']);
  const bin = join(cli, 'node_modules/.bin/robotskit');
  const help = must(run(bin, ['--help'], cli), 'robotskit --help');
  if (!help.stdout.includes('lint')) fail(`robotskit --help does not list lint:\n${help.stdout}`);
  writeFileSync(join(cli, 'robots.txt'), 'User-agent: *\nAlow: /private\n');
  const linted = run(bin, ['lint', 'robots.txt'], cli);
  if (linted.code !== 1 || !linted.stdout.includes('unknown-field')) {
    fail(
      `robotskit lint robots.txt: expected exit 1 and unknown-field, got ${linted.code}\n${linted.stdout}${linted.stderr}`,
    );
  }
  const imported = must(
    run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const { parseRobotsTxt } = await import('robotskit'); console.log(parseRobotsTxt('User-agent: *\\nDisallow: /x').isAllowed('https://a.invalid/x', 'Googlebot'));",
      ],
      cli,
    ),
    "import('robotskit')",
  );
  if (imported.stdout.trim() !== 'false') fail(`import('robotskit') answered ${imported.stdout}`);
  const required = must(
    run(process.execPath, ['-e', "console.log(typeof require('robotskit').parseRobotsTxt)"], cli),
    "require('robotskit')",
  );
  if (required.stdout.trim() !== 'function') fail(`require('robotskit') gave ${required.stdout}`);
  // The MCP server (the SDK, a dependency of the command) from the tarball: initialize, then its tools.
  const mcp = must(
    run(
      bin,
      ['mcp'],
      cli,
      [
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'ci', version: '1' } },
        },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      ]
        .map((message) => `${JSON.stringify(message)}\n`)
        .join(''),
    ),
    'robotskit mcp',
  );
  const tools = JSON.parse(mcp.stdout.trim().split('\n').at(-1) ?? '{}').result?.tools?.map((t) => t.name) ?? [];
  if (tools.sort().join(',') !== 'audit,check,diff,explain,lint')
    fail(`robotskit mcp listed the tools ${tools}:\n${mcp.stdout}`);
  const noServer = run(bin, ['serve'], cli);
  if (
    noServer.code !== 2 ||
    !/npm install robotskit-server/.test(noServer.stderr) ||
    noServer.stderr.trim().includes('\n')
  ) {
    fail(
      `robotskit serve without the service: expected one line naming robotskit-server, got ${noServer.code}\n${noServer.stderr}`,
    );
  }
  const cliModules = join(cli, 'node_modules');
  step(
    `installed without the service: ${countPackages(cliModules)} packages, ${mb(sizeOf(cliModules))} (node_modules)`,
  );
}

// 2. With the report service.
async function checkService() {
  step('installing robotskit-cli with robotskit-server into another empty project');
  const full = project('with-server', ['robotskit', 'robotskit-sitemaps', 'robotskit-server', 'robotskit-cli']);
  const fullModules = join(full, 'node_modules');
  step(`installed with the service: ${countPackages(fullModules)} packages, ${mb(sizeOf(fullModules))} (node_modules)`);
  const port = await new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
  const child = spawn(
    join(full, 'node_modules/.bin/robotskit'),
    ['serve', '--port', String(port), '--db', join(full, 'robotskit.sqlite'), '--workers', '0'],
    { cwd: full, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.add(child);
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  let health = null;
  // Generous: a hang guard, not a speed test.
  for (let attempt = 0; attempt < 240 && health === null; attempt++) {
    const done = await Promise.race([exited.then(() => 'exited'), new Promise((r) => setTimeout(r, 500))]);
    if (done === 'exited') fail(`robotskit serve exited before answering:\n${output}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`);
      health = { status: response.status, body: await response.text() };
    } catch {
      // not listening yet
    }
  }
  child.kill('SIGTERM');
  const code = await exited;
  if (health === null) fail(`robotskit serve did not answer /api/health within 120 s:\n${output}`);
  if (health.status !== 200) fail(`/api/health answered ${health.status}: ${health.body}`);
  children.delete(child);
  step(`robotskit serve answered /api/health: ${health.body.trim()}; it stopped on SIGTERM with exit ${code}`);
}

if (packOnly) {
  step(`packed into ${packOnly}`);
  process.exit(0);
}

// Type resolution as TypeScript users get it (node10, node16 from CJS and ESM, bundlers), by @arethetypeswrong/cli.
// `cjs-resolves-to-esm` is ignored: the packages are ESM only, and the Node versions they support (>= 20.19) load
// them with require() as well (checked by checkCommand).
if (want('attw')) {
  for (const name of Object.keys(file)) {
    must(
      run('npx', ['--yes', '@arethetypeswrong/cli@0.18.5', file[name], '--ignore-rules', 'cjs-resolves-to-esm'], work),
      `arethetypeswrong ${name}`,
    );
    step(`${name}: types resolve (arethetypeswrong)`);
  }
}
if (want('types')) checkStrictTypes();
if (want('command')) checkCommand();
if (want('service')) await checkService();
step('all passed');
