/**
 * `robotskit generate <policy.json|policy.yaml> [--check robots.txt]`: a robots.txt from a declarative policy (the
 * engine's `generateRobots`, which verifies its output against the policy; names and categories are read in the
 * catalogue with the list `robotskit crawlers update` merged, when there is one). JSON is read by the engine's rules; YAML
 * (any file not ending in `.json`, and standard input) is read with the `yaml` package into the same structure.
 * A group may state AI usage preferences (`usage`: Content-Usage rules; `contentSignal`), written as lines and checked
 * by the engine like the rules. Prints the file; exit 1 (nothing printed) if the engine found it wrong (a URL decided
 * against the policy, a usage preference other than the policy's, a lint error), 3 (nothing printed) if a comparison was cut short by its bounds before finding anything: not proven either
 * way, like `format`'s 3. With `--check`, prints nothing when the given robots.txt decides every URL as the policy says
 * for every crawler the policy names and for `*`, with the policy's usage preferences (exit 0), else the regions and
 * usage preferences where it does not (exit 1), or exit 3
 * when the comparison was cut short without a difference. Exit 2 on usage, I/O and policy errors. `--json` prints one document of
 * the same shape in every mode (see {@link GenerateJson}).
 */

// Types only: the engine loads when the command runs, so registering the command costs nothing at start-up.
import type { CrawlerComparison, RobotsComparison } from 'robotskit/semantics';
import { CliError, type Io, readInput } from '../io.js';
import { userCatalogue } from '../options/catalogue.js';
import { visible } from '../output/paint.js';

/** Options of `generate`, as commander parsed them. */
export interface GenerateOptions {
  readonly check?: string;
  readonly json?: boolean;
}

/**
 * `--json`: one shape whichever mode. `verified` and `text` are the generated file's (text null when it could not be
 * verified); `check` is null without `--check`, else whether that file follows the policy and, per crawler, where not.
 */
interface GenerateJson {
  readonly verified: boolean;
  readonly text: string | null;
  readonly unverified: readonly string[];
  readonly check: {
    readonly file: string;
    readonly followsPolicy: boolean;
    readonly crawlers: readonly CrawlerComparison[];
  } | null;
}

function printJson(io: Io, doc: GenerateJson): void {
  io.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
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
  const usage = c.usage ?? [];
  const lines = [
    `${c.crawler}: ${count} region${count === 1 ? '' : 's'} decided otherwise than the policy says${usage.length === 0 ? '' : `, ${usage.length} AI usage preference${usage.length === 1 ? '' : 's'} other than the policy's`}`,
  ];
  for (const r of c.regions) {
    const what = r.change === 'blocked' ? 'allowed, the policy blocks' : 'blocked, the policy allows';
    const where = r.before === null ? 'no rule matches' : `line ${r.before.line}`;
    lines.push(`  ${what}  ${visible(r.pattern)}  e.g. ${visible(r.witness)} (${where})`);
  }
  for (const u of usage) {
    const where = u.linesBefore.length === 0 ? 'no line' : `line ${u.linesBefore.join(', ')}`;
    lines.push(
      `  usage  ${u.category} ${u.before ?? 'unstated'}, the policy says ${u.after ?? 'unstated'}  at ${visible(u.path)} (${where})`,
    );
  }
  if (!c.complete) lines.push('  incomplete: the comparison reached its bounds; there may be more');
  return lines;
}

/** Runs `generate`; returns the exit code. */
export async function runGenerate(io: Io, file: string, options: GenerateOptions): Promise<number> {
  if (file === '-' && options.check === '-')
    throw new CliError('only one of the policy and --check can be standard input (-)');
  const { compareRobots, generateRobots, PolicyError } = await import('robotskit/semantics');
  // Names and categories are read in the catalogue with the user's merged ai.robots.txt list, when there is one.
  const { crawlers: catalogue } = await userCatalogue(io);
  const policy = await readPolicy(io, file);
  let result: ReturnType<typeof generateRobots>;
  try {
    result = generateRobots(policy as Parameters<typeof generateRobots>[0], { crawlers: catalogue });
  } catch (error) {
    if (error instanceof PolicyError)
      throw new CliError(`policy ${file === '-' ? 'standard input' : `'${file}'`}: ${error.message}`);
    throw error;
  }
  if (result.unnamed.length > 0) {
    const list = result.unnamed.map((u) => `${u.crawler} (read as ${u.readAs === '' ? 'no name' : u.readAs})`);
    io.stderr.write(
      `robotskit: left out, robots.txt cannot name them as Google reads it and they obey the * group: ${list.join(', ')}\n`,
    );
  }
  if (!result.verified) {
    const failed = [
      ...new Set([
        ...result.checks.filter((c) => !c.equivalent).map((c) => c.crawler),
        ...result.usage.map((u) => u.crawler),
      ]),
    ];
    const errors = result.diagnostics.filter((d) => d.severity === 'error').map((d) => `line ${d.line}: ${d.message}`);
    if (options.json) printJson(io, { verified: false, text: null, unverified: failed, check: null });
    // Wrong: a comparison found a URL decided against the policy, or lint an error. Else only cut short: unproven.
    const wrong =
      errors.length > 0 ||
      result.usage.length > 0 ||
      result.checks.some((c) => !c.equivalent && (c.regions.length > 0 || (c.usage?.length ?? 0) > 0));
    const short = result.checks.filter((c) => !c.complete && c.regions.length === 0).map((c) => c.crawler);
    io.stderr.write(
      wrong
        ? `robotskit: the generated file could not be verified against the policy${failed.length > 0 ? ` (${failed.join(', ')})` : ''}${errors.length > 0 ? `; lint: ${errors.join('; ')}` : ''}\n`
        : `robotskit: the generated file was not printed: its comparison with the policy was cut short by its bounds before it could be proven (${short.join(', ')})\n`,
    );
    return wrong ? 1 : 3;
  }
  if (options.check === undefined) {
    if (options.json) printJson(io, { verified: true, text: result.text, unverified: [], check: null });
    else io.stdout.write(result.text);
    return 0;
  }
  const existing = await readInput(io, options.check, 'robots.txt file');
  // The names as written, compared as Google's reference compares them.
  const crawlers = result.checks.map((c) => c.crawler);
  const diff: RobotsComparison = compareRobots(existing, result.text, { crawlers, usage: true });
  const name = options.check === '-' ? 'standard input' : options.check;
  if (options.json) {
    const check = { file: name, followsPolicy: diff.equivalent, crawlers: diff.crawlers.filter((c) => !c.equivalent) };
    printJson(io, { verified: true, text: result.text, unverified: [], check });
    return checkStatus(diff);
  }
  if (diff.equivalent) return 0;
  if (checkStatus(diff) === 3) {
    const short = diff.crawlers.filter((c) => !c.complete).map((c) => c.crawler);
    io.stderr.write(
      `robotskit: ${name}: the comparison with the policy was cut short by its bounds before finding a difference (${short.join(', ')}): not proven either way\n`,
    );
    return 3;
  }
  const out = diff.crawlers.filter((c) => !c.equivalent).flatMap(describe);
  io.stdout.write(`${name} does not follow the policy:\n${out.join('\n')}\n`);
  return 1;
}

/** `--check`'s status: 0 follows the policy, 1 a region decided against it, 3 cut short before finding one. */
function checkStatus(diff: RobotsComparison): 0 | 1 | 3 {
  if (diff.equivalent) return 0;
  return diff.crawlers.some((c) => c.regions.length > 0 || (c.usage?.length ?? 0) > 0) ? 1 : 3;
}
