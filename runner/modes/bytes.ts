/**
 * Mode `bytes` (a matrix without timing or per-call measures): every configuration × repeat is
 * run, `--jobs` at a time, through the relay or tap, and counted (runner/execute/run-matrix.ts
 * orchestrates, runner/results/ writes). Supports resume, shard, jobs and verify; ^C stops
 * gracefully and prints the command that resumes.
 */
import { probeAutoRevisions, probeLines, undrivenRevisions } from "../execute/probe-revisions.js";
import { RAW_CLIENT } from "../drivers/declarations.js";
import { hasStreamableHttp } from "../drivers/mcp/revision.js";
import { UserError } from "../../format/errors.js";
import { counted } from "../../format/plural.js";
import { availableParallelism } from "node:os";
import { runMatrix, type TimeSplit } from "../execute/run-matrix.js";
import { ownAndChildrenCpuSeconds } from "../measure/cpu.js";
import type { RunRecord } from "../results/schema.js";
import type { RunMode } from "./types.js";
import { BYTES_SUPPORT, runCommandLine } from "./commands.js";

/** A one-screen summary of failed runs: at most `max` lines, grouped by configuration. */

/**
 * Why a target answered no revision, as one probe said it: the first skipped revision that was
 * asked on every transport it failed on. A revision whose HTTP transport wirecost does not speak
 * (2024-11-05: HTTP+SSE) says only that, which is not why the server failed; it is named only
 * when nothing else was asked.
 */
function probeFailure(skipped: readonly { revision: string; why: string; transports: string[] }[]): string | undefined {
  const asked = skipped.find((s) => s.transports.every((t) => t !== "http" || hasStreamableHttp(s.revision)));
  return (asked ?? skipped[0])?.why;
}

/**
 * The lines that list a run's failed runs under its summary line: status, configuration, repeat,
 * exit and error (cut at 160 characters), at most `max`, then how many more runs.tsv holds.
 */
export function failureSummary(failed: readonly RunRecord[], max = 12): string[] {
  const lines = failed
    .slice(0, max)
    .map((f) => `  ${f.status} ${f.config} #${f.repeat}${f.exit ? ` (exit ${f.exit})` : ""}: ${f.error.length > 160 ? f.error.slice(0, 157) + "…" : f.error}`);
  if (failed.length > max) lines.push(`  … and ${failed.length - max} more (see runs.tsv)`);
  return lines;
}

/**
 * The run's time and CPU, for its last lines: `cpuNote` goes into the `N of M runs ok` line
 * (` in 400.6 s (CPU: wirecost 42.7 s, the targets it started 671.8 s, the target builds 120.0 s;
 * floor 417.3 s on 2 cores, 0.96×)`), `timeNote` is a line of its own splitting the wall time
 * into the target builds (before the runs, or beside them from the first run's start), target
 * start-up (summed spawn-to-ready seconds over the runs, divided by the jobs) and the rest.
 * Time and CPU are counted from the start of the builds; the floor is all of that CPU (the
 * builds' own, read from their process trees, named apart) over the cores.
 * @param time the run's split (runMatrix)
 * @param cpuEnd CPU seconds of this process and its reaped children now; undefined without /proc
 * @param cores cores this process may run on (the floor is the CPU seconds over them)
 * @returns [cpuNote, timeNote]; "" for what cannot be known
 */
export function timeLines(time: TimeSplit, cpuEnd: { own: number; children: number } | undefined, cores: number): [string, string] {
  const s = (x: number) => `${x.toFixed(1)} s`;
  let cpuNote = ` in ${s(time.runSeconds)}`;
  const at = time.cpuAtStart;
  if (cpuEnd && at) {
    const own = cpuEnd.own - at.own;
    const builds = time.buildCpuSeconds;
    const targets = Math.max(0, cpuEnd.children - at.children - builds);
    const floor = (own + targets + builds) / cores;
    // A run that ran (next to) nothing has no floor worth a ratio (e.g. a --resume of a finished folder).
    const floorNote = floor >= 0.05 ? `; floor ${s(floor)} on ${counted(cores, "core")}, ${(time.runSeconds / floor).toFixed(2)}×` : "";
    cpuNote += ` (CPU: wirecost ${s(own)}, the targets it started ${s(targets)}${builds > 0 ? `, the target builds ${s(builds)}` : ""}${floorNote})`;
  }
  const parts: string[] = [];
  const first = time.firstRunSeconds;
  if (time.builds > 0) {
    const builds = `target build${time.builds === 1 ? "" : "s"} ${s(time.buildSeconds)}`;
    parts.push(first === undefined || first >= time.buildSeconds ? `${builds} before the runs` : `${builds}, the runs beside them from ${s(first)} on`);
  }
  if (time.readyRuns > 0 && time.jobs > 0) {
    const runs = time.runSeconds - (first ?? 0);
    const share = time.startupSeconds / time.jobs;
    parts.push(
      `target start-up ${s(time.startupSeconds)} summed over ${counted(time.readyRuns, "run")} (spawn to ready), ${s(share)} of the runs' ${s(runs)} at ${counted(time.jobs, "job")}; the rest ${s(Math.max(0, runs - share))}`,
    );
  }
  return [cpuNote, parts.length ? `  time: ${parts.join("; ")}` : ""];
}

/** The bytes mode. */
export const bytesMode: RunMode = {
  kind: "wire",
  measures: "byte counts",
  claims: () => true,
  supports: BYTES_SUPPORT,
  interrupt: "graceful",
  async run(matrix, file, o) {
    const probes = await probeAutoRevisions(matrix, o);
    const again = { repeats: o.repeats, shard: o.shard, results: o.results, resume: true, skipMissingToolchains: o.skipMissingToolchains };
    /** Stopped before any run: the folder is as it was, so the same command starts again. */
    const stoppedBefore = (what: string): number => {
      process.stderr.write(`interrupted before the first run (${what}): nothing written to ${o.results}/\n`);
      process.stderr.write(
        `run again: ${o.rerunCommand ?? runCommandLine(this, file, { ...again, only: o.only, resume: o.resume === true, fresh: o.fresh })}\n`,
      );
      return 130;
    };
    if (o.signal.aborted) return stoppedBefore("while asking the targets which revisions they speak");
    for (const line of probeLines(probes)) process.stderr.write(`${line}\n`);
    // Every target of the matrix asked and none answered: the server is the problem, not the matrix.
    const answered = probes.some((p) => p.spoken.length > 0);
    if (probes.length > 0 && !answered && matrix.axes.find((a) => a.name === "target")?.values.every((t) => matrix.targets[t]?.revisionsAuto)) {
      const older = probes.map(undrivenRevisions).filter((x) => x !== undefined);
      if (older.length === probes.length)
        throw new UserError(
          `revisions: auto: ${older.join("; ")} — a revision wirecost's drivers do not speak (they speak ${RAW_CLIENT.revisions.join(", ")}): measure a release of the server built on an MCP SDK that speaks one of those`,
        );
      throw new UserError(
        `revisions: auto: no target answered any revision (${probes.map((p) => `${p.target}: ${probeFailure(p.skipped) ?? "not asked"}`).join("; ")}) — start the server by hand with the same command and check that it speaks MCP on stdin/stdout or on 127.0.0.1`,
      );
    }
    const { runs, failed, skippedTargets, interrupted, left, written, time, staging } = await runMatrix(matrix, o);
    if (interrupted && !written) return stoppedBefore("while building targets");
    if (interrupted) {
      const kept = staging ? ` (beside the results ${o.results}/ held before, which stay until the re-run is complete)` : "";
      process.stderr.write(`interrupted: ${runs.length} runs written to ${staging ?? o.results}/${kept}, ${left} left\n`);
      process.stderr.write(o.rerunCommand ? `run again: ${o.rerunCommand}\n` : `resume: ${runCommandLine(this, file, { ...again, only: o.only })}\n`);
      return 130;
    }
    const skipped = runs.filter((r) => r.status === "skipped").length;
    const [cpuNote, timeNote] = timeLines(time, ownAndChildrenCpuSeconds(), availableParallelism());
    const where = staging
      ? `not moved into ${o.results}/, whose results stay as they were (a run failed); the new ones are in ${staging}/`
      : `results in ${o.results}/`;
    process.stderr.write(`${runs.length - failed.length - skipped} of ${runs.length} runs ok${skipped ? `, ${skipped} skipped` : ""}${cpuNote}; ${where}\n`);
    if (timeNote) process.stderr.write(`${timeNote}\n`);
    for (const why of skippedTargets.values()) process.stderr.write(`  skipped: ${why}\n`);
    if (!failed.length) return 0;
    for (const line of failureSummary(failed)) process.stderr.write(line + "\n");
    process.stderr.write(`rerun them: ${o.rerunCommand ?? runCommandLine(this, file, { ...again, only: [...new Set(failed.map((f) => f.config))] })}\n`);
    return 1;
  },
};
