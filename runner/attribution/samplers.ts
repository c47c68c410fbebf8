/**
 * The samplers of a profiled window and the CPU readings beside them (README "How to read a stage
 * table"). Three kinds, chosen by data (a target's `profile: { sampler }` in the matrix):
 * - `self`: the process samples itself over a signal window (the profile-window contract: started
 *   with `WIRECOST_PROFILE_OUT=<path>`, SIGUSR1 starts, SIGUSR2 stops and writes `<path>` atomically):
 *   wirecost's TypeScript targets (targets/common/profile-window.ts), and Go and Rust targets that
 *   follow the contract;
 * - `py-spy`: py-spy 0.4.x attached by pid (`py-spy record --pid P --format raw --rate R
 *   --nonblocking --output FILE`: it reads the process's memory without pausing it, so the window
 *   is not slowed by the sampler), stopped with SIGINT at the window's end; its raw output is
 *   folded stacks;
 * - `in-process`: V8's CPU profiler on the measuring process itself (`node:inspector`).
 * A sampler that is missing or refused gives `{ reason }` (one line), never a failed run.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { V8Sampler, intervalUs } from "../../targets/common/profile-window.js";
import { clockTicksPerSecond, readSchedstatNs } from "../measure/cpu.js";
import { FoldedError, parseFolded, type FoldedProfile } from "./folded.js";

/** The sampler kinds a target may declare (`profile.sampler`). */
export const SAMPLER_KINDS = ["self", "py-spy"] as const;
export type SamplerKind = (typeof SAMPLER_KINDS)[number];

/** What a stopped sampler gives: the profile (and its text, kept in the results folder), or why there is none. */
export type SamplerResult = { profile: FoldedProfile; text: string } | { reason: string };

/** A sampler that is sampling. */
export interface RunningSampler {
  /** The profiler's name and version as the header will say (best known before stopping). */
  readonly name: string;
  /** Stop sampling and read the profile; never throws (a failure is `{ reason }`). */
  stop(): Promise<SamplerResult>;
}

/** Default sampling rate, Hz (a prime, so the sampling does not beat with periodic work). */
export const DEFAULT_PROFILE_HZ = 997;
/** The sampling period at the default rate, µs. */
export const DEFAULT_PROFILE_PERIOD_US = intervalUs(DEFAULT_PROFILE_HZ);
/**
 * py-spy's sampling rate, Hz (a prime). py-spy samples from a process of its own, which competes
 * for the CPUs with the two processes it watches: at 997 Hz on this 2-core machine the profiled
 * window of a Python path ran 16–38 % slower than the same calls unprofiled, at 251 Hz 2–3 % (one
 * sampled Python process; `node dist/bench/profiler-overhead.js`). The stage shares come from
 * fewer samples (about 250 a second of the window), the totals from the CPU clocks as before.
 */
export const PY_SPY_HZ = 251;

const oneLine = (s: string, n = 200): string => {
  const t = s.replace(/\s+/g, " ").trim();
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
};

/** Parse a profile file's text into a result. */
function readProfile(file: string, what: string): SamplerResult {
  if (!existsSync(file)) return { reason: `${what} wrote no profile (${file})` };
  const text = readFileSync(file, "utf8");
  try {
    return { profile: parseFolded(text), text };
  } catch (e) {
    if (e instanceof FoldedError) return { reason: `${what}'s profile is not folded stacks: ${e.message}` };
    throw e;
  }
}

/**
 * How long to wait after SIGUSR1 before the calls of a window start, ms. A process's own window
 * opens asynchronously (the signal wakes a thread or goroutine that starts the sampler), and on a
 * loaded 2-core machine that took long enough that a harness window of 1,000 direct calls in Rust
 * (0.1 s of CPU) had no sample at all without a wait, and samples with 300 ms. The calls are
 * started after it; the window's CPU and wall time are read after it too, so it is in neither.
 */
export const SELF_WINDOW_SETTLE_MS = 300;

/**
 * Open the signal window of a process that samples itself (it must have been started with
 * `WIRECOST_PROFILE_OUT=outFile`): SIGUSR1 now; `stop()` sends SIGUSR2 and waits up to
 * `waitMs` for `outFile` to appear.
 * @returns the running sampler, or `{ reason }` when the process cannot be signalled
 */
export function startSelfSampler(pid: number, outFile: string, waitMs = 10_000): RunningSampler | { reason: string } {
  rmSync(outFile, { force: true });
  try {
    process.kill(pid, "SIGUSR1");
  } catch (e) {
    return { reason: `could not signal pid ${pid} to start its profile window: ${(e as Error).message}` };
  }
  return {
    name: "self",
    async stop() {
      try {
        process.kill(pid, "SIGUSR2");
      } catch (e) {
        return { reason: `could not signal pid ${pid} to end its profile window: ${(e as Error).message}` };
      }
      const t0 = Date.now();
      while (!existsSync(outFile) && Date.now() - t0 < waitMs) await sleep(5);
      if (!existsSync(outFile))
        return {
          reason: `the target wrote no profile within ${waitMs / 1000} s of SIGUSR2 (does it follow the profile-window contract? WIRECOST_PROFILE_OUT)`,
        };
      return readProfile(outFile, "the target");
    },
  };
}

/**
 * Run `work` inside the signal window of process `pid` (see {@link startSelfSampler}) and return
 * the profile it wrote with what `work` returned: for tests and benches that want a failure thrown.
 * @throws Error with the reason when the window cannot be opened or no profile comes back
 */
export async function profileWindow<T>(pid: number, outFile: string, work: () => Promise<T>): Promise<{ profile: FoldedProfile; result: T }> {
  const sampler = startSelfSampler(pid, outFile);
  if ("reason" in sampler) throw new Error(sampler.reason);
  const result = await work();
  const stopped = await sampler.stop();
  if ("reason" in stopped) throw new Error(stopped.reason);
  return { profile: stopped.profile, result };
}

/** How a process is sampled, as a target's or a declared client's `profile:` says (undefined: not declared). */
export type SamplerSpec = { sampler?: SamplerKind; pySpy?: string } | undefined;

/**
 * Start the sampler `spec` declares on `pid`, writing `outFile`: the process's own signal window
 * (`self`) or py-spy attached by pid (at {@link PY_SPY_HZ}); or why there is none, one line.
 * @param declaredBy who declares it, for that line (e.g. `target mcp-go`, `client py-sdk`)
 */
export async function startDeclaredSampler(
  spec: SamplerSpec,
  declaredBy: string,
  pid: number | undefined,
  outFile: string,
): Promise<RunningSampler | { reason: string }> {
  if (!spec?.sampler) return { reason: `${declaredBy} declares no profile sampler (profile: { sampler: self } or { sampler: py-spy, pySpy } in the matrix)` };
  if (pid === undefined) return { reason: "the process's pid is unknown" };
  return spec.sampler === "self" ? startSelfSampler(pid, outFile) : startPySpy(spec.pySpy!, pid, outFile);
}

/**
 * Attach py-spy to `pid` and wait until it says it samples (its "Sampling process" line), at most `waitMs`.
 * @param pySpy the py-spy executable (a path; the mcp-py build installs it at `{build}/venv/bin/py-spy`)
 * @returns the running sampler, or `{ reason }`: py-spy not found, or it exited (ptrace refused, …) with its last stderr line
 */
export async function startPySpy(pySpy: string, pid: number, outFile: string, hz = PY_SPY_HZ, waitMs = 10_000): Promise<RunningSampler | { reason: string }> {
  if (!existsSync(pySpy)) return { reason: `py-spy not found at ${pySpy} (the target's build installs it: rebuild it)` };
  rmSync(outFile, { force: true });
  const child = spawn(pySpy, ["record", "--pid", String(pid), "--format", "raw", "--rate", String(hz), "--nonblocking", "--output", outFile], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  let exited: number | string | null = null;
  const exit = new Promise<void>((resolve) => {
    child.on("exit", (code, sig) => {
      exited = code ?? sig;
      resolve();
    });
    child.on("error", (e) => {
      err += e.message;
      exited = "spawn error";
      resolve();
    });
  });
  const ready = new Promise<boolean>((resolve) => {
    const onData = (d: Buffer): void => {
      err += d.toString();
      if (/Sampling process/.test(err)) resolve(true);
    };
    child.stderr.on("data", onData);
    child.stdout.on("data", onData);
    void exit.then(() => resolve(false));
    setTimeout(() => resolve(false), waitMs).unref();
  });
  if (!(await ready)) {
    child.kill("SIGKILL");
    await exit;
    const last = err.trim().split("\n").filter(Boolean).at(-1) ?? "no output";
    return { reason: `py-spy could not attach to pid ${pid}${exited !== null ? ` (exit ${exited})` : " (no start within the wait)"}: ${oneLine(last)}` };
  }
  return {
    name: "py-spy",
    async stop() {
      child.kill("SIGINT");
      const timer = setTimeout(() => child.kill("SIGKILL"), waitMs);
      await exit;
      clearTimeout(timer);
      const r = readProfile(outFile, "py-spy");
      if ("reason" in r) return r;
      r.profile.meta = { profiler: "py-spy@0.4", interval_us: String(intervalUs(hz)), pid: String(pid), ...r.profile.meta };
      return r;
    },
  };
}

/** V8's CPU profiler on this process (the measuring process), every `1e6/hz` µs. */
export async function startInProcessSampler(hz = DEFAULT_PROFILE_HZ): Promise<RunningSampler | { reason: string }> {
  const s = new V8Sampler(intervalUs(hz));
  try {
    await s.start();
  } catch (e) {
    return { reason: `V8's profiler refused to start in the measuring process: ${(e as Error).message}` };
  }
  return {
    name: `v8@${process.versions.v8.split("-")[0]}`,
    async stop() {
      try {
        const text = await s.stop();
        return { profile: parseFolded(text), text };
      } catch (e) {
        return { reason: `V8's profiler failed: ${(e as Error).message}` };
      }
    },
  };
}

/** A process's CPU time, µs, user and system apart. */
export interface CpuReading {
  userUs: number;
  systemUs: number;
}

/** One reading of a process's CPU clocks, µs: schedstat's total (ns precision) and stat's user and system (clock-tick precision). */
export interface ProcCpuReading {
  totalUs: number;
  userTicksUs: number;
  systemTicksUs: number;
}

/**
 * Read the CPU clocks of process `pid`: the sum of its threads' schedstat run time and
 * `/proc/<pid>/stat`'s utime and stime.
 * @throws Error when the process is gone or /proc cannot be read
 */
export function readProcessCpu(pid: number): ProcCpuReading {
  const s = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
  const hz = clockTicksPerSecond();
  return { totalUs: readSchedstatNs(pid) / 1000, userTicksUs: (Number(f[11]) * 1e6) / hz, systemTicksUs: (Number(f[12]) * 1e6) / hz };
}

/**
 * The CPU a process used between two readings, µs: schedstat's total, split into user and system
 * in the ratio of stat's utime and stime over the same interval (all user when both moved 0 ticks).
 */
export function cpuBetween(a: ProcCpuReading, b: ProcCpuReading): CpuReading {
  const total = b.totalUs - a.totalUs;
  const u = b.userTicksUs - a.userTicksUs;
  const sys = b.systemTicksUs - a.systemTicksUs;
  const sysShare = u + sys > 0 ? sys / (u + sys) : 0;
  return { userUs: total * (1 - sysShare), systemUs: total * sysShare };
}
