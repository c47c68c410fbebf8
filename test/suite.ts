/**
 * The test suite's runner (`npm test` runs it after the build and the lint): every
 * `test/**\/*.test.ts` file, run compiled from `dist/test/` by Node's test runner (`node --test
 * FILE` with its `spec` reporter, each file in its own process, its report printed whole when it
 * ends, with its wall time), in two groups:
 *
 * 1. every file but the quiet ones, {@link concurrency} files at a time, the files of
 *    {@link SLOW_FIRST} started first (they build targets and run matrices: started last, one of
 *    them would run alone at the end); target builds are shared through `.wirecost/build/` and
 *    its per-target build lock (runner/build/build.ts), so no two files build the same target;
 * 2. then the files of {@link QUIET}, one at a time: their assertions rest on a CPU-time
 *    sampler's windows, which other files' processes would disturb (and one whose cancellation
 *    under load is not understood yet: see the list).
 *
 * Each file's process gets its own temporary folder (`TMPDIR`, which Node's `os.tmpdir()`, Python's
 * `tempfile` and Go's `os.TempDir` read) under one folder of the suite's run,
 * `$TMPDIR/wirecost-suite-<random>/<n>` (`mkdtemp`'s six random characters, then the file's number): removed when the file passes, kept and named when it fails,
 * so that a run leaves nothing in the machine's temporary folder but what a failure needs read
 * (the folder of the run goes once it is empty; on ^C or SIGTERM each file's process group is
 * stopped, the suite waits until its processes are gone, and every folder the run made goes).
 *
 * Only files whose source exists are run (a test moved or deleted leaves no stale copy that runs).
 * At the end it prints each group's counts and wall time and the slowest files, and exits 1 when a
 * test failed or a file named on the command line or in a list here has no source.
 *
 *   node dist/test/suite.js                                  # the whole suite
 *   node dist/test/suite.js test/count/stdio.test.ts         # just these files (source or dist path)
 *   WIRECOST_TEST_CONCURRENCY=1 node dist/test/suite.js      # every file one at a time (default: 2 side by side)
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { spawn, type ChildProcess } from "node:child_process";
import { counted } from "../format/plural.js";
import { root } from "./paths.js";

/**
 * Files whose assertions rest on a CPU-time sampler's windows (known costs recovered within 15 %,
 * an SDK's frames among a window's stacks): run after the rest, one at a time. On a machine whose
 * run queue is longer than its cores, a window's samples can fall in step with the calls'
 * preemptions (known-cost.test.ts says how; profile-windows.test.ts's mcp-rust window found no
 * rmcp frame when run beside the other files). Files that
 * measure CPU time by the process's own clock (measure/cpu, compare/timings, the stage tables'
 * sums) hold under load and run with the rest.
 */
export const QUIET: readonly string[] = [
  "test/attribution/known-cost.test.ts",
  "test/targets/known-cost.test.ts",
  "test/targets/profile-windows.test.ts",
  // Side by side on 2 cores its fork-server tests were cancelled ("Promise resolution is still
  // pending but the event loop has already resolved") in a fresh clone; alone they pass. Cause not
  // found yet: run it where nothing else loads the machine.
  "test/targets/forkserver.test.ts",
];

/**
 * The longest files of the concurrent group (target builds, whole-matrix runs, browsers), started
 * first, longest first (durations from `npm test`'s own summary on the project's 2-core machine).
 */
export const SLOW_FIRST: readonly string[] = [
  "test/targets/built-wire.test.ts",
  "test/targets/a2a-card.test.ts",
  "test/targets/a2a-built.test.ts",
  "test/targets/sdk-targets.test.ts",
  "test/browser/site.test.ts",
  "test/percall/harness.test.ts",
  "test/integration/conformance-suite.test.ts",
];

/** Files run side by side in the first group when `WIRECOST_TEST_CONCURRENCY` does not say: one per core of the project's 2-core machine. */
export const DEFAULT_CONCURRENCY = 2;

/**
 * Files run side by side in the first group: `WIRECOST_TEST_CONCURRENCY` (a whole number from 1),
 * else (unset or empty) {@link DEFAULT_CONCURRENCY}; any other value is the one-line error returned
 * instead, which the suite prints before exiting 1. (Side by side, HTTP runs once failed their first repeat with
 * "server closed the connection before a complete response": the first count of a wirecost process
 * built its tokenizers while other runs were in flight, stalling them past the targets' keep-alive
 * timeout under the load of two files; a bytes run now builds them first, runner/count/tokens.ts.)
 */
export function concurrency(env: NodeJS.ProcessEnv = process.env): number | string {
  const text = env.WIRECOST_TEST_CONCURRENCY;
  if (text === undefined || text === "") return DEFAULT_CONCURRENCY;
  const asked = Number(text);
  return /^[0-9]+$/.test(text) && Number.isSafeInteger(asked) && asked >= 1
    ? asked
    : `test suite: WIRECOST_TEST_CONCURRENCY=${JSON.stringify(text)} is not a whole number from 1 — set it to the files to run side by side (1 for one at a time), or unset it for ${DEFAULT_CONCURRENCY}`;
}

/** Every test source under `test/` (repo-relative, sorted). */
function testSources(dir = "test"): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? (e.name === "fixtures" ? [] : testSources(join(dir, e.name))) : e.name.endsWith(".test.ts") ? [join(dir, e.name)] : []))
    .sort();
}

/** The source of a test named by its source or compiled path (relative to the working folder), or undefined when there is none. */
function sourceOf(arg: string): string | undefined {
  const rel = relative(root, resolve(arg))
    .replace(/^dist\//, "")
    .replace(/\.js$/, ".ts");
  return existsSync(join(root, rel)) && rel.endsWith(".test.ts") ? rel : undefined;
}

/** The compiled file of a test source. */
const compiled = (source: string): string => join(root, "dist", source.replace(/\.ts$/, ".js"));

/** What one group's run reported. */
interface GroupResult {
  counts: Record<string, number>;
  /** Source → seconds from its process's start to its exit. */
  seconds: Map<string, number>;
  failed: boolean;
  /** Each failed file with its exit status and its failing section. */
  failures: FileResult[];
  wallSeconds: number;
}

/** What one file's process reported. */
interface FileResult {
  source: string;
  counts: Record<string, number>;
  seconds: number;
  /** Its exit status (1 when a test failed), or the signal that ended it. */
  exit: number | string;
  /** The spec reporter's "failing tests" section (names and first error lines), at most 40 lines; empty when none. */
  failing: string[];
  /** Its temporary folder, kept when it failed; undefined when it passed (the folder is gone). */
  kept: string | undefined;
}

/**
 * The suite run's temporary folders: one under the machine's temporary folder, and one per file
 * inside it (short names: a Unix socket's path under it must stay within 107 bytes).
 */
class Scratch {
  /** `$TMPDIR/wirecost-suite-<random>` (made by `mkdtemp`), traversable by every user (tests run the CLI as `nobody`). */
  readonly root = mkdtempSync(join(tmpdir(), "wirecost-suite-"));
  private next = 0;
  /** Test processes running now (stopped on ^C or SIGTERM). */
  readonly running = new Set<ChildProcess>();

  constructor() {
    chmodSync(this.root, 0o755);
  }

  /** A new folder for one file's process, writable by every user like /tmp itself (mode 1777). */
  folder(): string {
    const dir = join(this.root, String(++this.next));
    mkdirSync(dir);
    chmodSync(dir, 0o1777);
    return dir;
  }

  /** Remove `dir`; a folder that cannot be removed is named on stderr (the suite's result stands). */
  remove(dir: string): void {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch (e) {
      process.stderr.write(`test suite: could not remove ${dir}: ${(e as Error).message}\n`);
    }
  }

  /**
   * Stop every running file: SIGTERM to its process group (the test process and the commands its
   * tests started, which stop their own targets and write what they hold), then wait until no
   * process of those groups is left, 15 s at most, before the folders are removed.
   */
  async stopAll(): Promise<void> {
    const groups = [...this.running].map((child) => child.pid!);
    const alive = (group: number): boolean => {
      try {
        process.kill(-group, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (const group of groups.filter(alive)) process.kill(-group, "SIGTERM");
    for (let waited = 0; waited < 15_000 && groups.some(alive); waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
  }

  /** Remove the run's folder when no failed file's folder is kept in it. */
  finish(): void {
    if (readdirSync(this.root).length === 0) this.remove(this.root);
  }
}

/**
 * Run one test file in its own `node --test` process (Node's runner and its `spec` reporter), with
 * its own temporary folder ({@link Scratch}), and print its report whole once it ends, headed by its
 * name and wall time, so that files run side by side never interleave their lines.
 */
function runFile(source: string, scratch: Scratch): Promise<FileResult> {
  const started = Date.now();
  const tmp = scratch.folder();
  // Its own process group, so that a stop reaches the processes its tests started too (below).
  const child = spawn(process.execPath, ["--test", "--test-reporter=spec", compiled(source)], {
    cwd: root,
    env: { ...process.env, TMPDIR: tmp },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  scratch.running.add(child);
  const chunks: Buffer[] = [];
  child.stdout.on("data", (d: Buffer) => chunks.push(d));
  child.stderr.on("data", (d: Buffer) => chunks.push(d));
  return new Promise((resolve) => {
    child.on("close", (code, signal) => {
      scratch.running.delete(child);
      const seconds = (Date.now() - started) / 1000;
      const text = Buffer.concat(chunks).toString("utf8");
      const counts: Record<string, number> = {};
      for (const m of text.matchAll(/^ℹ (tests|suites|pass|fail|cancelled|skipped|todo) (\d+)$/gm)) counts[m[1]!] = Number(m[2]);
      const exit = code ?? signal ?? "unknown";
      const kept = exit === 0 ? undefined : tmp;
      if (kept === undefined) scratch.remove(tmp);
      process.stdout.write(
        `\n── ${source} (${seconds.toFixed(1)} s${kept === undefined ? "" : `, exit ${exit}, its temporary files kept in ${kept}`})\n${text}`,
      );
      resolve({ source, counts, seconds, exit, failing: failingSection(text), kept });
    });
  });
}

/**
 * The lines of the spec reporter's closing "✖ failing tests:" section (its names and the first lines
 * of each error), at most 40, so that the suite's last lines name what failed even when only its
 * tail is kept; when the section is missing (a crash), the lines marked ✖.
 */
function failingSection(text: string): string[] {
  const lines = text.split("\n");
  const at = lines.findIndex((l) => l.startsWith("✖ failing tests"));
  const picked = at >= 0 ? lines.slice(at + 1).filter((l) => l.trim() !== "") : lines.filter((l) => l.trimStart().startsWith("✖"));
  return picked.slice(0, 40);
}

/** Run `sources`, `jobs` files at a time, in the order given. */
async function runGroup(sources: readonly string[], jobs: number, scratch: Scratch): Promise<GroupResult> {
  const started = Date.now();
  const queue = [...sources];
  const results: FileResult[] = [];
  const worker = async (): Promise<void> => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) results.push(await runFile(next, scratch));
  };
  await Promise.all(Array.from({ length: Math.min(jobs, sources.length) }, worker));
  const counts: Record<string, number> = {};
  for (const r of results) for (const [k, n] of Object.entries(r.counts)) counts[k] = (counts[k] ?? 0) + n;
  return {
    counts,
    seconds: new Map(results.map((r) => [r.source, r.seconds])),
    failed: results.some((r) => r.exit !== 0),
    failures: results.filter((r) => r.exit !== 0),
    wallSeconds: (Date.now() - started) / 1000,
  };
}

/** One line of counts, e.g. `312 tests: 305 pass, 0 fail, 7 skipped`. */
function countsLine(c: Record<string, number>): string {
  return `${c.tests ?? 0} tests: ${c.pass ?? 0} pass, ${c.fail ?? 0} fail, ${c.cancelled ?? 0} cancelled, ${c.skipped ?? 0} skipped, ${c.todo ?? 0} todo`;
}

/**
 * Run the suite (or the files named in `args`) and print the summary.
 * @returns the exit status: 0 when every test passed, 1 otherwise (or a name without a source)
 */
export async function main(args: readonly string[]): Promise<number> {
  const all = testSources();
  const unknown = [...QUIET, ...SLOW_FIRST].filter((f) => !all.includes(f));
  const named = args.map((a) => [a, sourceOf(a)] as const);
  const missing = [...unknown.map((f) => `${f} (listed in test/suite.ts)`), ...named.filter(([, s]) => s === undefined).map(([a]) => a)];
  if (missing.length) {
    process.stderr.write(`test suite: no test source ${missing.join(", ")} — name a test/**/*.test.ts file, or fix the list in test/suite.ts\n`);
    return 1;
  }
  const chosen = named.length ? named.map(([, s]) => s!) : all;
  const rank = (f: string) => (SLOW_FIRST.includes(f) ? SLOW_FIRST.indexOf(f) : SLOW_FIRST.length);
  const busy = chosen.filter((f) => !QUIET.includes(f)).sort((a, b) => rank(a) - rank(b));
  const quiet = QUIET.filter((f) => chosen.includes(f));
  const jobs = concurrency();
  if (typeof jobs === "string") {
    process.stderr.write(`${jobs}\n`);
    return 1;
  }
  const scratch = new Scratch();
  const stop = async (signal: NodeJS.Signals) => {
    await scratch.stopAll();
    scratch.remove(scratch.root);
    process.stderr.write(`test suite: stopped by ${signal}; its temporary files removed\n`);
    process.exit(signal === "SIGINT" ? 130 : 143);
  };
  process.once("SIGINT", (signal) => void stop(signal));
  process.once("SIGTERM", (signal) => void stop(signal));
  const groups: [string, GroupResult][] = [];
  if (busy.length) groups.push([`${counted(busy.length, "file")}, ${Math.min(jobs, busy.length)} at a time`, await runGroup(busy, jobs, scratch)]);
  if (quiet.length) groups.push([`${counted(quiet.length, "quiet file")}, one at a time`, await runGroup(quiet, 1, scratch)]);
  scratch.finish();
  const lines = ["", "test suite:"];
  for (const [name, g] of groups) lines.push(`  ${name}: ${countsLine(g.counts)}; ${g.wallSeconds.toFixed(0)} s`);
  const slowest = groups.flatMap(([, g]) => [...g.seconds]).sort((a, b) => b[1] - a[1]);
  lines.push("  slowest files (wall s of their process, side by side with others in the first group):");
  for (const [f, s] of slowest.slice(0, 15)) lines.push(`    ${s.toFixed(1).padStart(6)}  ${f}`);
  const total = groups.reduce((n, [, g]) => n + g.wallSeconds, 0);
  const tests = groups.reduce((n, [, g]) => n + (g.counts.tests ?? 0), 0);
  const failed = groups.some(([, g]) => g.failed);
  for (const r of groups.flatMap(([, g]) => g.failures)) {
    lines.push(`  failed: ${r.source} (exit ${r.exit}; its temporary files in ${r.kept})`);
    for (const l of r.failing) lines.push(`    ${l}`);
  }
  lines.push(`  ${counted(tests, "test")} in ${counted(chosen.length, "file")}, ${total.toFixed(0)} s${failed ? ", FAILED" : ""}`);
  process.stdout.write(lines.join("\n") + "\n");
  return failed ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));
