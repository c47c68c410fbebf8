/**
 * The attribution: one profiled window (both processes sampled over the same timed calls, each
 * process's user and system CPU measured over the same window) → a stage table, µs per call.
 *
 * Per process with a profile and a CPU reading: each sample is given a stage by the process's
 * stage rules (runner/attribution/rules.ts; no rule → `unclassified`); the process's MEASURED
 * user CPU per call is split over the stages in proportion to their samples (the sampler gives
 * shares, /proc/<pid>/stat or `process.cpuUsage()` the totals); its system CPU per call is its
 * `kernel` row (measured, not sampled). A Go profile's header `sysmon_cpu_us` (the CPU time, user and
 * system together, of the runtime's monitor thread over the window, which runtime/pprof never
 * samples; targets/common/profilewindow) becomes the process's `monitor` row (kind scheduling) and
 * is taken out of the user CPU before the samples split it (any excess over the user CPU out of the
 * system CPU), so it is not spread over the sampled stages. A process without a profile gets one `not-attributed` row
 * holding its user CPU per call, with the reason; without a CPU reading, that row's time is null.
 * `hand-off` is the window's wall time per call minus every process's CPU per call: time neither
 * process spends on a CPU (pipe or socket transfer, wake-ups); negative when the processes ran at
 * once (e.g. a runtime's helper threads beside the main one), and shown as it is.
 * By construction the rows sum to the window's wall time per call; check (a) compares that with the
 * profiled calls' own stopwatch (README "How to read a stage table").
 */
import type { FoldedProfile } from "./folded.js";
import { stageOfStack, type StageRules } from "./rules.js";
import { IDLE_STAGE, STAGES, stageDef, type StageKind, type StageProcess } from "./stages.js";

/** One process of the window. */
export interface ProcessWindow {
  role: "client" | "server";
  /** Its CPU time over the window, µs (user and system apart); null when it could not be read (`cpuReason` says why). */
  cpu: { userUs: number; systemUs: number } | null;
  cpuReason?: string;
  /** Its profile over the window; null when there is none (`notAttributed` says why). */
  profile: FoldedProfile | null;
  notAttributed?: string;
  /** Its stage rules; null when the path declares none (every sample then is unclassified). */
  rules: StageRules | null;
}

/** A profiled window: timed calls, wall time from the first call's start to the last call's end. */
export interface AttributionWindow {
  calls: number;
  /** Wall time of the window, µs. */
  wallUs: number;
  processes: ProcessWindow[];
}

/** One row of a stage table. */
export interface StageRow {
  process: StageProcess;
  stage: string;
  label: string;
  kind: StageKind;
  /** Samples that fell in it (null for measured rows: kernel, hand-off, and a not-attributed process's row). */
  samples: number | null;
  /** Time per call, µs; null when it could not be measured (see `note`). */
  usPerCall: number | null;
  /** `not attributed: <reason>` or another one-line note; "" otherwise. */
  note: string;
}

/** A leaf function of unclassified samples (the page shows the top ones beside the unclassified row). */
export interface UnclassifiedFrame {
  process: "client" | "server";
  frame: string;
  samples: number;
  usPerCall: number;
}

/** The stage table of one window. */
export interface StageTable {
  calls: number;
  /** The window's wall time per call, µs. */
  wallUsPerCall: number;
  rows: StageRow[];
  /** Per process, the most sampled unclassified leaf frames (at most `topFrames` each). */
  unclassifiedTop: UnclassifiedFrame[];
  /** Sum of the rows' µs per call; null when a row is null. */
  sumUsPerCall: number | null;
}

const PROCESS_ORDER: StageProcess[] = ["client", "server", "between"];

function row(process: StageProcess, stage: string, samples: number | null, usPerCall: number | null, note = ""): StageRow {
  const d = stageDef(stage);
  return { process, stage, label: d.label, kind: d.kind, samples, usPerCall, note };
}

/**
 * The monitor thread's CPU over the window (`sysmon_cpu_us` of a Go profile's header), µs, capped at
 * the process's measured CPU; null when the header has none (every other sampler), it is not a
 * non-negative number, or the process's CPU was not read.
 */
function monitorUs(p: ProcessWindow): number | null {
  const raw = p.profile?.meta.sysmon_cpu_us;
  if (raw === undefined || !p.cpu || !/^\d+(\.\d+)?$/.test(raw)) return null;
  return Math.min(Number(raw), p.cpu.userUs + p.cpu.systemUs);
}

/** Rows of one process: its stages by samples, its monitor and kernel rows, or its not-attributed row; plus its unclassified leaves. */
function processRows(p: ProcessWindow, calls: number, topFrames: number): { rows: StageRow[]; top: UnclassifiedFrame[] } {
  const monitor = monitorUs(p);
  const fromUser = p.cpu && monitor !== null ? Math.min(monitor, p.cpu.userUs) : 0;
  const userPerCall = p.cpu ? (p.cpu.userUs - fromUser) / calls : null;
  const monitorRow = monitor !== null ? [row(p.role, "monitor", null, monitor / calls)] : [];
  const kernel = p.cpu ? [row(p.role, "kernel", null, (p.cpu.systemUs - ((monitor ?? 0) - fromUser)) / calls), ...monitorRow] : [];
  const staged = p.profile ? p.profile.stacks.map((s) => ({ s, stage: (p.rules && stageOfStack(s.frames, p.rules.rules)) ?? "unclassified" })) : [];
  const onCpu = staged.filter((x) => x.stage !== IDLE_STAGE);
  const total = onCpu.reduce((n, x) => n + x.s.count, 0);
  if (!p.profile || total === 0) {
    const why = p.notAttributed ?? (p.profile ? "the profile holds no on-CPU samples (all idle or none)" : "no profile");
    const cpuWhy = p.cpu ? "" : `; CPU not measured: ${p.cpuReason ?? "unknown"}`;
    return { rows: [row(p.role, "not-attributed", null, userPerCall, `not attributed: ${why}${cpuWhy}`), ...kernel], top: [] };
  }
  const byStage = new Map<string, number>();
  const leaves = new Map<string, number>();
  for (const { s, stage } of onCpu) {
    byStage.set(stage, (byStage.get(stage) ?? 0) + s.count);
    if (stage === "unclassified") {
      const leaf = s.frames.at(-1)!;
      leaves.set(leaf, (leaves.get(leaf) ?? 0) + s.count);
    }
  }
  const share = (n: number): number | null => (userPerCall === null ? null : (userPerCall * n) / total);
  const note = p.cpu ? "" : `CPU not measured: ${p.cpuReason ?? "unknown"}`;
  const rows = STAGES.filter((d) => byStage.has(d.id)).map((d) => row(p.role, d.id, byStage.get(d.id)!, share(byStage.get(d.id)!), note));
  const top = [...leaves.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, topFrames)
    .map(([frame, n]) => ({ process: p.role, frame, samples: n, usPerCall: share(n) ?? 0 }));
  return { rows: [...rows, ...kernel], top };
}

/**
 * Attribute one window's time to stages.
 * @param w the window: calls ≥ 1, wall µs, the processes (client and, on an MCP path, server)
 * @param topFrames how many unclassified leaf frames to keep per process
 * @returns rows ordered by process (client, server, between) then by the vocabulary's order; the
 *   hand-off row is null when a process's CPU was not measured
 * @throws Error on calls < 1
 */
export function attribute(w: AttributionWindow, topFrames = 5): StageTable {
  if (!(w.calls >= 1)) throw new Error(`attribute: calls ${w.calls} < 1`);
  const parts = w.processes.map((p) => processRows(p, w.calls, topFrames));
  const cpuKnown = w.processes.every((p) => p.cpu);
  const cpuPerCall = w.processes.reduce((s, p) => s + (p.cpu ? (p.cpu.userUs + p.cpu.systemUs) / w.calls : 0), 0);
  const wallUsPerCall = w.wallUs / w.calls;
  const handOff = row("between", "hand-off", null, cpuKnown ? wallUsPerCall - cpuPerCall : null, cpuKnown ? "" : "a process's CPU was not measured");
  const rows = [...parts.flatMap((x) => x.rows), handOff].sort(
    (a, b) =>
      PROCESS_ORDER.indexOf(a.process) - PROCESS_ORDER.indexOf(b.process) ||
      STAGES.findIndex((s) => s.id === a.stage) - STAGES.findIndex((s) => s.id === b.stage),
  );
  const sum = rows.every((r) => r.usPerCall !== null) ? rows.reduce((s, r) => s + r.usPerCall!, 0) : null;
  return { calls: w.calls, wallUsPerCall, rows, unclassifiedTop: parts.flatMap((x) => x.top), sumUsPerCall: sum };
}
