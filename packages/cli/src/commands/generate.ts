/**
 * `robotskit generate <policy.json|policy.yaml> [--check robots.txt]`: a robots.txt from a declarative policy (the
 * engine's `generateRobots`, which verifies its output against the policy). JSON is read by the engine's rules; YAML
 * (any file not ending in `.json`, and standard input) is read with the `yaml` package into the same structure.
 * Prints the file; exit 1 (nothing printed) if the engine could not verify it. With `--check`, prints nothing when
 * the given robots.txt decides every URL as the policy says for every crawler the policy names and for `*` (exit 0),
 * else the regions where it does not (exit 1). Exit 2 on usage, I/O and policy errors.
 */

// Types only: the engine loads when the command runs, so registering the command costs nothing at start-up.
import type { CrawlerComparison, RobotsComparison } from 'robotskit/semantics';
import { CliError, type Io, readInput } from '../io.js';
import { visible } from '../output/paint.js';

/** Options of `generate`, as commander parsed them. */
export interface GenerateOptions {
  readonly check?: string;
}

async function readPolicy(io: Io, file: string): Promise<unknown> {
  const name = file === '-' ? 'standard input' : `'${file}'`;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(await readInput(io, file, 'policy file'));
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`policy ${name} is not UTF-8 text`);
  }
  if (file.toLowerCase().endsWith('.json')) {
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new CliError(`policy ${name} is not JSON: ${(error as Error).message}`);
    }
  }
  const { parse } = await import('yaml');
  try {
    return parse(text);
  } catch (error) {
    const first = (error as Error).message.split('\n')[0];
    throw new CliError(`policy ${name} is not YAML (nor JSON): ${first}`);
  }
}

function describe(c: CrawlerComparison): string[] {
  const count = c.regions.length;
  const lines = [`${c.crawler}: ${count} region${count === 1 ? '' : 's'} decided otherwise than the policy says`];
  for (const r of c.regions) {
    const what = r.change === 'blocked' ? 'allowed, the policy blocks' : 'blocked, the policy allows';
    const where = r.before === null ? 'no rule matches' : `line ${r.before.line}`;
    lines.push(`  ${what}  ${visible(r.pattern)}  e.g. ${visible(r.witness)} (${where})`);
  }
  if (!c.complete) lines.push('  incomplete: the comparison reached its bounds; there may be more');
  return lines;
}

/** Runs `generate`; returns the exit code. */
export async function runGenerate(io: Io, file: string, options: GenerateOptions): Promise<number> {
  if (file === '-' && options.check === '-')
    throw new CliError('only one of the policy and --check can be standard input (-)');
  const [{ crawlerByName }, { compareRobots, generateRobots, PolicyError }] = await Promise.all([
    import('robotskit'),
    import('robotskit/semantics'),
  ]);
  const policy = await readPolicy(io, file);
  let result: ReturnType<typeof generateRobots>;
  try {
    result = generateRobots(policy as Parameters<typeof generateRobots>[0]);
  } catch (error) {
    if (error instanceof PolicyError)
      throw new CliError(`policy ${file === '-' ? 'standard input' : `'${file}'`}: ${error.message}`);
    throw error;
  }
  if (!result.verified) {
    const failed = result.checks.filter((c) => !c.equivalent).map((c) => c.crawler);
    const errors = result.diagnostics.filter((d) => d.severity === 'error').map((d) => `line ${d.line}: ${d.message}`);
    io.stderr.write(
      `robotskit: the generated file could not be verified against the policy${failed.length > 0 ? ` (${failed.join(', ')})` : ''}${errors.length > 0 ? `; lint: ${errors.join('; ')}` : ''}\n`,
    );
    return 1;
  }
  if (options.check === undefined) {
    io.stdout.write(result.text);
    return 0;
  }
  const existing = await readInput(io, options.check, 'robots.txt file');
  const crawlers = result.checks.map((c) => (c.crawler === '*' ? '*' : (crawlerByName(c.crawler) ?? c.crawler)));
  const diff: RobotsComparison = compareRobots(existing, result.text, { crawlers });
  if (diff.equivalent) return 0;
  const out = diff.crawlers.filter((c) => !c.equivalent).flatMap(describe);
  const name = options.check === '-' ? 'standard input' : options.check;
  io.stdout.write(`${name} does not follow the policy:\n${out.join('\n')}\n`);
  return 1;
}
