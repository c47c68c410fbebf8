/**
 * A process's CPU time from /proc (Linux). Primary: the sum over its threads of
 * `/proc/<pid>/task/<tid>/schedstat` field 1 (time on CPU, nanoseconds). Cross-check: utime + stime
 * from `/proc/<pid>/stat` (fields 14 and 15, clock ticks; they include threads that already exited).
 */
import { readFileSync, readdirSync } from "node:fs";
import { execFileSync } from "node:child_process";

/** One reading of a process's CPU time. */
export interface CpuSample {
  /** Sum of per-thread schedstat run time, nanoseconds. */
  schedNs: number;
  /** utime + stime, clock ticks. */
  ticks: number;
}

let clkTck: number | undefined;
/** Clock ticks per second (`getconf CLK_TCK`, 100 when it cannot be read). */
export function clockTicksPerSecond(): number {
  if (clkTck === undefined) {
    try {
      clkTck = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      clkTck = 100;
    }
  }
  return clkTck;
}

/** utime + stime of `/proc/<pid>/stat`, clock ticks. @throws Error when the process is gone */
export function readStatTicks(pid: number): number {
  const s = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
  // f[0] is field 3 (state); utime is field 14, stime field 15.
  return Number(f[11]) + Number(f[12]);
}

/**
 * CPU this process used itself and what its children that have exited used (utime + stime, and
 * cutime + cstime of `/proc/self/stat`), seconds; undefined where /proc is not readable.
 */
export function ownAndChildrenCpuSeconds(): { own: number; children: number } | undefined {
  try {
    const s = readFileSync("/proc/self/stat", "utf8");
    const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
    const hz = clockTicksPerSecond();
    // f[0] is field 3; utime, stime, cutime, cstime are fields 14–17.
    return { own: (Number(f[11]) + Number(f[12])) / hz, children: (Number(f[13]) + Number(f[14])) / hz };
  } catch {
    return undefined;
  }
}

/** Sum of schedstat run time over the threads of `pid`, nanoseconds. @throws Error when the process is gone */
export function readSchedstatNs(pid: number): number {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      /* thread exited between listing and reading */
    }
  }
  return ns;
}

/** Read both CPU figures of `pid`. @throws Error when the process is gone */
export function sampleCpu(pid: number): CpuSample {
  return { schedNs: readSchedstatNs(pid), ticks: readStatTicks(pid) };
}

/** CPU per request over a window, with the tick figure's quantisation error. */
export interface CpuPerRequest {
  requests: number;
  /** schedstat CPU / requests, microseconds (the primary figure). */
  cpuPerRequestUs: number;
  /** (utime + stime) ticks / requests, microseconds (the cross-check). */
  ticksPerRequestUs: number;
  /** Ticks counted over the window. */
  ticks: number;
  /** One tick over the ticks counted (a fraction, e.g. 0.004 = 0.4 %); Infinity when no tick was counted. */
  quantisationError: number;
}

/**
 * The quantisation error of a tick count: one tick over the ticks counted.
 * @param ticks ticks counted over the window (≥ 0)
 * @returns a fraction; Infinity for 0 ticks
 */
export function quantisationError(ticks: number): number {
  return ticks > 0 ? 1 / ticks : Infinity;
}

/**
 * CPU per request between two samples.
 * @param requests requests served in the window (> 0)
 * @throws Error when requests ≤ 0
 */
export function cpuPerRequest(before: CpuSample, after: CpuSample, requests: number, ticksPerSecond = clockTicksPerSecond()): CpuPerRequest {
  if (requests <= 0) throw new Error("cpuPerRequest needs at least one request");
  const ticks = after.ticks - before.ticks;
  return {
    requests,
    cpuPerRequestUs: (after.schedNs - before.schedNs) / 1000 / requests,
    ticksPerRequestUs: ((ticks / ticksPerSecond) * 1e6) / requests,
    ticks,
    quantisationError: quantisationError(ticks),
  };
}
