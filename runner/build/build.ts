/**
 * Target builds (`build:` in the matrix, README "Targets in any language"): before preflight,
 * `wirecost run` builds each target it needs that is missing or stale into
 * `.wirecost/build/<target>` (a temporary folder renamed into place on success), keyed by the
 * sha256 of the build command, the toolchain versions and the contents of the declared inputs.
 * The folder's `wirecost-build.json` records the key, the toolchain and the resolved dependency
 * set; a second run with the same key rebuilds nothing.
 */
import { killProcessGroup } from "../targets/process.js";
import { createHash } from "node:crypto";
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { execa } from "execa";
import { UserError } from "../../format/errors.js";
import type { Buildable, Matrix, Target } from "../matrix/types.js";
import { buildCacheRoot, buildCacheRootSource, repoRoot } from "../paths.js";
import { makeFolder, writeAtomic } from "../../format/files.js";
import { missingToolchain, toolchainVersions } from "./toolchain.js";
import { readResolved, type ResolvedSet } from "./resolved.js";
import { Interrupted } from "../errors.js";
import { lockHolderAlive, pidAlive, readLock, thisProcessLockRecord } from "../results/lock.js";

/** The record a finished build leaves in its folder (`wirecost-build.json`). Times ISO 8601 UTC, seconds wall-clock. */
export interface BuildRecord {
  target: string;
  /** sha256 hex of command + toolchain versions + input contents: the cache key. */
  digest: string;
  command: string[];
  /** Toolchain versions: the build's `toolchain[].version` lines plus what the resolved set carries (python, pip, go). */
  toolchain: Record<string, string>;
  resolved?: ResolvedSet;
  builtAt: string;
  seconds: number;
}

/** What {@link ensureBuilt} did: the record of every built target, and the targets skipped with the reason. */
export interface BuildOutcome {
  /** Target name → its build record (built now or found fresh). */
  records: Map<string, BuildRecord>;
  /** Target name → why it was skipped (a missing toolchain, with skipMissingToolchains). */
  skipped: Map<string, string>;
  /** How many builds ran now (targets sharing a build folder count once); 0 when every build was fresh. */
  built: number;
  /** CPU seconds (user + system) of the builds that ran now, their whole process trees; 0 when none ran. */
  cpuSeconds: number;
}

/**
 * Builds started by {@link startBuilds}: what was known at once (fresh builds, skipped targets)
 * and a promise per target still building, so that a run can start each configuration as soon as
 * its own target is built.
 */
export interface StartedBuilds {
  /** Target name → its build record, for the builds found fresh; {@link pending}'s are added as they end. */
  records: Map<string, BuildRecord>;
  /** Target name → why it was skipped (a missing toolchain, with skipMissingToolchains). */
  skipped: Map<string, string>;
  /**
   * Target name → its build, running now: resolves with its record (also put into
   * {@link records}), rejects with the build's UserError or Interrupted. Targets sharing a build
   * folder share one promise.
   */
  pending: Map<string, Promise<BuildRecord>>;
  /** How many builds were started (targets sharing a build folder count once). */
  built: number;
  /** CPU seconds (user + system) of the builds that have ended, their whole process trees; grows as they end. */
  cpu: { seconds: number };
}

const RECORD = "wirecost-build.json";
/** Folders never part of a build's inputs (build outputs and caches that may sit beside sources). */
const SKIP_DIRS = new Set(["target", "node_modules", "__pycache__", ".venv", "venv", ".git"]);

function filesUnder(path: string, out: string[]): void {
  const st = statSync(path);
  if (!st.isDirectory()) return void out.push(path);
  for (const e of readdirSync(path).sort()) if (!SKIP_DIRS.has(e)) filesUnder(join(path, e), out);
}

/**
 * The command that writes a missing version lock `locks/<family>@<version>` when a `lock.sh` sits
 * beside `locks/` (targets/mcp-ts-releases/lock.sh), e.g. `bash targets/mcp-ts-releases/lock.sh v1 1.14.0`.
 */
function lockCommand(input: string, version: string): string | undefined {
  const m = /^(.+)@(.+)$/.exec(basename(input));
  if (!m || m[2] !== version || basename(dirname(input)) !== "locks") return undefined;
  const script = join(dirname(dirname(input)), "lock.sh");
  return existsSync(script) ? `write its lock: bash ${relative(process.cwd(), script)} ${m[1]} ${version}` : undefined;
}

/**
 * The cache key of `target`'s build.
 * @throws UserError naming an input that does not exist (and, for one under dist/, that compiling makes it)
 */
export function buildDigest(target: Buildable, toolchain: Record<string, string>): string {
  const b = target.build!;
  // Arguments naming files are keyed by their path from the wirecost root, so the same build declared in matrices of different folders has one key.
  const command = b.command.map((a) => (!a.includes("{") && existsSync(resolve(b.cwd, a)) ? relative(repoRoot, resolve(b.cwd, a)) : a));
  const h = createHash("sha256").update(JSON.stringify({ command, toolchain }));
  for (const input of b.inputs) {
    if (!existsSync(input)) {
      // A compiled target among the inputs (a versioned TypeScript target copies dist/targets/<name>): compiling makes it.
      const compiled = !relative(join(repoRoot, "dist"), input).startsWith("..");
      // A version's own input (its lock, `{version}` in the input): the version is new, not the input path wrong.
      const { family, version } = target as Partial<Pick<Target, "family" | "version">>;
      const ofVersion = family !== undefined && version !== undefined && input.includes(version);
      const fix = compiled
        ? "compile the project first: npm run build"
        : ofVersion
          ? `${lockCommand(input, version) ?? `create it for version ${version}`}, or remove ${version} from targets.${family}.versions`
          : "fix build.inputs";
      throw new UserError(`${b.at}: build input ${relative(process.cwd(), input)} of target ${target.name} does not exist — ${fix}`);
    }
    const files: string[] = [];
    filesUnder(input, files);
    for (const f of files) h.update(relative(repoRoot, f)).update("\0").update(readFileSync(f)).update("\0");
  }
  return h.digest("hex");
}

/** The record of `target`'s current build folder, or undefined when it was never built. */
export function readBuildRecord(target: Buildable): BuildRecord | undefined {
  try {
    return JSON.parse(readFileSync(join(target.build!.dir, RECORD), "utf8")) as BuildRecord;
  } catch {
    return undefined;
  }
}

/** Last non-empty line of a text. */
function lastLine(text: string): string {
  return text.trim().split("\n").pop()?.trim() ?? "";
}

/**
 * The line of a failed build's output that says why: the last line naming an error (`error`,
 * `failed`, `cannot`, `not found`, `no matching`, `denied`), skipping tool epilogues that only
 * point elsewhere (`see above`, `go: downloading …`, `exit status 1`, cargo's "To learn more…"),
 * else the last non-empty line.
 */
export function failureLine(text: string): string {
  const lines = text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
  const epilogue =
    /see above|^exit status \d+$|^go: downloading |for more information about this error|to learn more, run the command again|a complete log of this run/i;
  const cause = /\berror\b|failed|cannot|can't|not found|no matching|denied|undefined:|\bhas no (?:version|package)\b/i;
  for (let i = lines.length - 1; i >= 0; i--) if (cause.test(lines[i]!) && !epilogue.test(lines[i]!)) return lines[i]!;
  return lines[lines.length - 1] ?? "";
}

/**
 * Point the scripts a build wrote at the folder it is renamed to: every regular file in a `bin`
 * folder up to three levels under `tmp` (a Python venv's `venv/bin`, a tool's `bin`) whose `#!`
 * line names `tmp` gets that line with `dir` in its place. pip writes a venv's console scripts
 * with the absolute path of the venv's Python, which the rename would leave pointing at a folder
 * that no longer exists (their start failing with ENOENT for a script that is there).
 * @param tmp the folder the build wrote (absolute)
 * @param dir the folder it is about to be renamed to (absolute)
 */
export function relocateShebangs(tmp: string, dir: string): void {
  const binFolders = (folder: string, depth: number): string[] => {
    if (depth < 0) return [];
    const out: string[] = [];
    for (const e of readdirSync(folder, { withFileTypes: true })) {
      if (!e.isDirectory()) continue;
      const sub = join(folder, e.name);
      if (e.name === "bin") out.push(sub);
      else out.push(...binFolders(sub, depth - 1));
    }
    return out;
  };
  for (const bin of binFolders(tmp, 3)) {
    for (const e of readdirSync(bin, { withFileTypes: true })) {
      if (!e.isFile()) continue;
      const file = join(bin, e.name);
      const head = readFileSync(file).subarray(0, 4096).toString("latin1");
      const end = head.indexOf("\n");
      if (!head.startsWith("#!") || end < 0 || !head.slice(0, end).includes(tmp)) continue;
      const bytes = readFileSync(file);
      const line = bytes.subarray(0, end).toString("utf8").replaceAll(tmp, dir);
      writeFileSync(file, Buffer.concat([Buffer.from(line, "utf8"), bytes.subarray(end)]));
    }
  }
}

/**
 * The CPU seconds of a build's process tree from the file bash's `times` wrote at its end (two
 * lines, `0m0.010s 0m0.002s`: the shell's own user and system time, then its children's); 0 when
 * the file is missing (the build was killed before bash got to write it).
 */
export function buildCpuSeconds(timesFile: string): number {
  let text: string;
  try {
    text = readFileSync(timesFile, "utf8");
  } catch {
    return 0;
  }
  let sum = 0;
  for (const m of text.matchAll(/(\d+)m([\d.]+)s/g)) sum += Number(m[1]) * 60 + Number(m[2]);
  return sum;
}

/**
 * Remove what an earlier build of this folder left when its wirecost was killed (kill -9, a
 * power cut): `DIR.tmp-PID` (the half-built folder, often tens of MB) and `DIR.cpu-PID`, names
 * only wirecost's builds write, when no process PID is running. A running PID's are left: it may
 * be another wirecost building the same target now (or a reused PID: then they wait for a later build).
 * @param dir the build folder (`.wirecost/build/NAME`)
 */
function removeDeadBuildsLeftovers(dir: string): void {
  const base = basename(dir);
  let names: string[];
  try {
    names = readdirSync(dirname(dir));
  } catch {
    return;
  }
  for (const name of names) {
    const suffix = [".tmp-", ".cpu-"].map((k) => base + k).find((p) => name.startsWith(p));
    const pidText = suffix === undefined ? "" : name.slice(suffix.length);
    const pid = /^\d{1,10}$/.test(pidText) ? Number(pidText) : 0;
    if (!pid || pid === process.pid || pidAlive(pid)) continue;
    rmSync(join(dirname(dir), name), { recursive: true, force: true });
  }
}

/**
 * Create a build's cache folder (runner/paths.ts buildCacheRoot) one level at a time (format/files.ts
 * makeFolder: Node's recursive mkdir never returns under /proc).
 * @throws UserError naming the folder, the cause and the variable that chose it
 */
function makeCacheFolder(cache: string): void {
  try {
    makeFolder(cache);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new UserError(
      `cannot create the build cache folder ${cache} (${err.code ?? err.message}; the folder comes from ${buildCacheRootSource()}) — set WIRECOST_CACHE_ROOT to a folder you can write`,
    );
  }
}

/**
 * Run `target`'s build into a temporary folder and rename it into place; `kind` (a target or a
 * declared client) names it in progress lines and errors.
 * The build runs in its own process group: a ^C typed on the terminal reaches wirecost only, and
 * `signal` stops the whole group (SIGTERM, SIGKILL after a second) and throws Interrupted, leaving
 * the previous build folder as it was; if wirecost exits meanwhile, the group is killed.
 */
async function runBuild(
  target: Buildable,
  kind: "target" | "client",
  cwd: string,
  digest: string,
  toolchain: Record<string, string>,
  log: (line: string) => void,
  signal?: AbortSignal,
  onCpu?: (seconds: number) => void,
): Promise<BuildRecord> {
  const b = target.build!;
  const tmp = `${b.dir}.tmp-${process.pid}`;
  const logFile = `${b.dir}.log`;
  const cache = join(buildCacheRoot(), basename(b.dir));
  makeCacheFolder(cache);
  removeDeadBuildsLeftovers(b.dir);
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const argv = b.command.map((a) => a.replaceAll("{build}", tmp));
  // The build runs under bash, which writes its children's CPU time (`times`) to a file beside the
  // build folder when the command ends, at a lower priority (nice 10): runs started beside a build
  // keep the CPU they need, and the build takes what they leave.
  const timesFile = `${b.dir}.cpu-${process.pid}`;
  const wrapped = ["bash", "-c", 'nice -n 10 "$@"; s=$?; times > "$WIRECOST_BUILD_TIMES"; exit $s', "wirecost-build", ...argv];
  const started = Date.now();
  const out = createWriteStream(logFile);
  let tail = "";
  const env = { WIRECOST_CACHE: cache, WIRECOST_BUILD_TIMES: timesFile };
  const child = execa(wrapped[0]!, wrapped.slice(1), { cwd, env, reject: false, stdin: "ignore", all: true, buffer: false, detached: true });
  const killGroup = (sig: NodeJS.Signals) => killProcessGroup(child.pid ?? -1, sig);
  // A process that exits (a second ^C, an immediate mode's ^C, an error) takes its build along.
  const onExit = () => killGroup("SIGKILL");
  process.on("exit", onExit);
  let hard: NodeJS.Timeout | undefined;
  const onAbort = () => {
    killGroup("SIGTERM");
    hard = setTimeout(() => killGroup("SIGKILL"), 1000);
  };
  if (signal?.aborted) onAbort();
  else signal?.addEventListener("abort", onAbort, { once: true });
  child.all?.on("data", (d: Buffer) => {
    out.write(d);
    tail = (tail + d.toString("utf8")).slice(-2000);
  });
  const tick = stillBuildingLines(`${kind} ${target.name}`, started, () => tail, log);
  const r = await child.finally(() => {
    clearInterval(tick);
    clearTimeout(hard);
    signal?.removeEventListener("abort", onAbort);
    process.off("exit", onExit);
  });
  await new Promise<void>((res) => out.end(res));
  onCpu?.(buildCpuSeconds(timesFile));
  rmSync(timesFile, { force: true });
  if (signal?.aborted) {
    killGroup("SIGKILL"); // anything the build left in its group
    rmSync(tmp, { recursive: true, force: true });
    throw new Interrupted(`interrupted while building ${kind} ${target.name}`);
  }
  if (r.exitCode !== 0) {
    rmSync(tmp, { recursive: true, force: true });
    const why = r.exitCode === undefined ? (r.signal ?? r.shortMessage) : `exit ${r.exitCode}`;
    throw new UserError(
      `${b.at}: the build of ${kind} ${target.name} failed (${why}): ${failureLine(tail).slice(0, 200) || "no output"} — full output in ${relative(process.cwd(), logFile)}`,
    );
  }
  return placeBuild(target, tmp, digest, toolchain, started);
}

/**
 * Move a finished build from `tmp` into its folder and write its record. The resolved set is read
 * where the build will live ({build} in resolved.path), so the folder is renamed into place first;
 * the record is written last, so a folder without it is never reused.
 * @param started when the build started (ms since the epoch)
 * @throws UserError naming the build when its resolved set cannot be read
 */
function placeBuild(target: Buildable, tmp: string, digest: string, toolchain: Record<string, string>, started: number): BuildRecord {
  const b = target.build!;
  relocateShebangs(tmp, b.dir);
  rmSync(b.dir, { recursive: true, force: true });
  mkdirSync(dirname(b.dir), { recursive: true });
  renameSync(tmp, b.dir);
  let resolved: ResolvedSet | undefined;
  try {
    resolved = b.resolved ? readResolved(b.resolved) : undefined;
  } catch (e) {
    throw new UserError(`${b.at}: target ${target.name} built, but its resolved set cannot be read: ${(e as Error).message} — check build.resolved.path`);
  }
  const rec: BuildRecord = {
    target: target.name,
    digest,
    command: b.command,
    toolchain: { ...toolchain, ...(resolved?.toolchain ?? {}) },
    ...(resolved ? { resolved } : {}),
    builtAt: new Date().toISOString(),
    seconds: Number(((Date.now() - started) / 1000).toFixed(1)),
  };
  writeAtomic(join(b.dir, RECORD), JSON.stringify(rec, null, 2) + "\n");
  return rec;
}

/**
 * A line every 15 s while a build's output moves on (`still building <what> (N s): <its last
 * line>`); while it repeats its last line (a long compile step), only every minute.
 * @returns the interval, to clear when the build ends
 */
function stillBuildingLines(what: string, started: number, tail: () => string, log: (line: string) => void): NodeJS.Timeout {
  let said = "";
  let saidAt = started;
  return setInterval(() => {
    const now = lastLine(tail()).slice(0, 120);
    if (now === said && Date.now() - saidAt < 60_000) return;
    said = now;
    saidAt = Date.now();
    log(`  still building ${what} (${Math.round((Date.now() - started) / 1000)} s): ${now}`);
  }, 15_000);
}

/**
 * Take the build lock of `target`'s build folder (`<folder>.lock`, created with O_EXCL, holding
 * the {@link LockRecord} of this process), so that two wirecost processes sharing `.wirecost/`
 * (two runs into different results folders, test files run side by side) never build one folder
 * at the same time. While another live process holds it, waits (a line every 15 s); a lock left
 * by a process that is gone is taken over.
 * @returns the function that releases the lock (safe to call twice)
 * @throws Interrupted when `signal` fires while waiting; a file-system error creating the lock
 */
async function takeBuildLock(target: Buildable, kind: "target" | "client", log: (line: string) => void, signal?: AbortSignal): Promise<() => void> {
  const path = `${target.build!.dir}.lock`;
  mkdirSync(dirname(path), { recursive: true });
  const rec = thisProcessLockRecord(`build ${kind} ${target.name}`);
  const started = Date.now();
  let saidAt = started;
  for (;;) {
    try {
      writeFileSync(path, `${JSON.stringify(rec)}\n`, { flag: "wx" });
      return () => rmSync(path, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
    const held = readLock(path);
    if (!lockHolderAlive(held)) {
      rmSync(path, { force: true }); // stale (its process is gone): take it over
      continue;
    }
    if (signal?.aborted) throw new Interrupted(`interrupted while waiting to build ${kind} ${target.name}`);
    if (Date.now() - saidAt >= 15_000) {
      saidAt = Date.now();
      log(`  waiting for wirecost pid ${held!.pid}, which is building ${kind} ${target.name} (${Math.round((Date.now() - started) / 1000)} s)`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * Start building every target or declared client (`clients:`) of `targetNames` that declares
 * `build:` and is missing or stale, the builds side by side (one per build folder), with a line
 * when each starts and ends (and every 15 s while one runs). The toolchains are probed at once;
 * the builds are not awaited: each target's build is a promise of {@link StartedBuilds.pending}.
 * @param opts `skipMissingToolchains`: a target whose toolchain is missing is skipped (with the
 *   reason) instead of refusing the run; `log` receives progress lines (default stderr);
 *   `signal` aborts the builds (^C): each build's process group is stopped
 * @returns the fresh build records, the skipped targets and the builds running
 * @throws UserError naming the missing tool and what to install (without skipMissingToolchains)
 *   or a missing input, before any build starts; a failed build rejects its own promise, with its
 *   last output line and the log file (Interrupted when `signal` fired)
 */
export function startBuilds(
  m: Matrix,
  targetNames: Iterable<string>,
  opts: { skipMissingToolchains?: boolean; log?: (line: string) => void; signal?: AbortSignal } = {},
): StartedBuilds {
  const log = opts.log ?? ((l: string) => process.stderr.write(l + "\n"));
  const cwd = dirname(m.file);
  const records = new Map<string, BuildRecord>();
  const skipped = new Map<string, string>();
  const cpu = { seconds: 0 };
  /** Builds to run, one per build folder (targets sharing a build.name share it): folder → its targets and what to run. */
  const toRun = new Map<string, { names: string[]; run: () => Promise<BuildRecord> }>();
  /** Targets refused for a missing toolchain (without skipMissingToolchains): all named in one line. */
  const refused: string[] = [];
  for (const name of new Set(targetNames)) {
    const t: Buildable | undefined = m.targets[name] ?? m.clients?.[name];
    if (!t?.build) continue;
    const kind = m.targets[name] ? "target" : "client";
    const missing = missingToolchain(t, cwd);
    if (missing) {
      if (!opts.skipMissingToolchains) {
        refused.push(`${t.build.at}: ${missing}`);
        continue;
      }
      log(`skipping: ${missing}`);
      skipped.set(name, missing);
      continue;
    }
    const toolchain = toolchainVersions(t, cwd);
    const digest = buildDigest(t, toolchain);
    const rec = readBuildRecord(t);
    if (rec && rec.digest === digest && existsSync(t.build.dir)) {
      records.set(name, rec);
      continue;
    }
    const same = toRun.get(t.build.dir);
    if (same) {
      same.names.push(name);
      continue;
    }
    toRun.set(t.build.dir, {
      names: [name],
      run: async () => {
        const release = await takeBuildLock(t, kind, log, opts.signal);
        try {
          // Another wirecost process may have built it while this one waited for the lock.
          const now = readBuildRecord(t);
          if (now && now.digest === digest && existsSync(t.build!.dir)) return now;
          log(`building ${kind} ${name} (${rec ? "its inputs or toolchain changed" : "not built yet"}): ${t.build!.command.join(" ")}`);
          const built = await runBuild(t, kind, cwd, digest, toolchain, log, opts.signal, (s) => (cpu.seconds += s));
          log(`built ${kind} ${name} in ${built.seconds} s`);
          return built;
        } finally {
          release();
        }
      },
    });
  }
  if (refused.length)
    throw new UserError(
      `${refused.join("; ")} (or leave ${refused.length === 1 ? "its configurations" : "their configurations"} out with --only, or pass --skip-missing-toolchains)`,
    );
  const pending = new Map<string, Promise<BuildRecord>>();
  for (const job of toRun.values()) {
    // Started on the next turn: a ^C typed during the (synchronous) probes is seen first.
    const done = new Promise((r) => setImmediate(r))
      .then(() => {
        if (opts.signal?.aborted) throw new Interrupted("interrupted before building targets");
        return job.run();
      })
      .then((r) => {
        for (const n of job.names) records.set(n, r);
        return r;
      });
    done.catch(() => {}); // awaited by whoever needs the target; never an unhandled rejection
    for (const n of job.names) pending.set(n, done);
  }
  return { records, skipped, pending, built: toRun.size, cpu };
}

/**
 * Build every target or declared client (`clients:`) of `targetNames` that declares `build:` and
 * is missing or stale ({@link startBuilds}), and wait for every build to end.
 * @param opts as {@link startBuilds}'s
 * @returns the build records and the skipped targets
 * @throws UserError naming the missing tool and what to install (without skipMissingToolchains),
 *   a missing input, or a failed build with its last output line and the log file; Interrupted
 *   when `signal` fired before or during a build (the build folders stay as they were)
 */
export async function ensureBuilt(
  m: Matrix,
  targetNames: Iterable<string>,
  opts: { skipMissingToolchains?: boolean; log?: (line: string) => void; signal?: AbortSignal } = {},
): Promise<BuildOutcome> {
  const started = startBuilds(m, targetNames, opts);
  // Every build is awaited before the first failure is reported, so none is left running.
  const settled = await Promise.allSettled(new Set(started.pending.values()));
  const failed =
    settled.find((r): r is PromiseRejectedResult => r.status === "rejected" && r.reason instanceof Interrupted) ??
    settled.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
  return { records: started.records, skipped: started.skipped, built: started.built, cpuSeconds: started.cpu.seconds };
}
