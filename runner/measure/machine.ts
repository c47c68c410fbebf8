/**
 * Machine state recorded with timing results: cores, CPU model, frequency governor, and the load
 * average before each trial (a busy machine is flagged, not hidden).
 */
import { cpus, loadavg } from "node:os";
import { readFileSync } from "node:fs";
import { allowedCores } from "./pinning.js";
import { clockTicksPerSecond } from "./cpu.js";

/** What the machine is, once per timing run. */
export interface MachineInfo {
  /** Logical CPUs the OS reports. */
  cores: number;
  /** Cores this process may use (`Cpus_allowed_list`). */
  allowedCores: number[];
  cpuModel: string;
  /** `scaling_governor` of cpu0, or "unreadable". */
  governor: string;
  /**
   * Clock ticks per second (`getconf CLK_TCK`), the unit of utime + stime in /proc/<pid>/stat: one
   * tick is 1/clockTicksPerSecond s. The tick figures and their quantisation error (one tick over
   * the ticks counted) were converted with it.
   */
  clockTicksPerSecond: number;
}

/** Read the machine description. */
export function machineInfo(): MachineInfo {
  let governor = "unreadable";
  try {
    governor = readFileSync("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "utf8").trim();
  } catch {
    /* not exposed in containers */
  }
  return { cores: cpus().length, allowedCores: allowedCores(), cpuModel: cpus()[0]?.model ?? "unknown", governor, clockTicksPerSecond: clockTicksPerSecond() };
}

/** Load before a trial. */
export interface LoadSample {
  /** 1-minute load average. */
  load1: number;
  /** True when load1 exceeds `threshold` (default: the number of allowed cores). */
  busy: boolean;
}

/** Sample the 1-minute load average and flag it busy above `threshold` runnable tasks. */
export function sampleLoad(threshold = allowedCores().length): LoadSample {
  const load1 = loadavg()[0] ?? 0;
  return { load1, busy: load1 > threshold };
}
