/**
 * Mode `timing` (`measures:` naming latency, cpu or throughput): trials run strictly one at a
 * time in interleaved order, each on a fresh target process (runner/execute/measure-run.ts
 * orchestrates, runner/measure/timings.ts writes). No resume, shard, jobs or verify: timings are
 * compared by eye against their spread; ^C kills the running target at once. The timing machinery
 * loads when a timing run starts, not when a command only asks which mode claims a matrix.
 */
import { timingOptions } from "../measure/options.js";
import type { RunMode } from "./types.js";

/** The timing mode. */
export const timingMode: RunMode = {
  kind: "timing",
  measures: "time and CPU per request",
  claims: (matrix) => timingOptions(matrix) !== undefined,
  supports: { resume: false, shard: false, jobs: false, verify: false, strict: false },
  interrupt: "immediate",
  interruptNote: "nothing written: the timing files are written when every trial has run",
  async run(matrix, _file, o) {
    const { runTimingMatrix } = await import("../execute/measure-run.js");
    const results = await runTimingMatrix(matrix, {
      results: o.results,
      only: o.only,
      trials: o.repeats,
      command: o.command,
      onTrial: (r, done, total) => {
        const fig =
          r.status === "ok"
            ? `${r.cpu ? `cpu ${r.cpu.cpuPerRequestUs.toFixed(1)} µs/req ` : ""}${r.latency ? `p50 ${r.latency.p50Us.toFixed(1)} µs` : ""}`
            : `FAILED: ${r.error}`;
        process.stderr.write(`[${done}/${total}] ${r.config} #${r.trial} (load ${r.load1.toFixed(2)}${r.busy ? ", busy" : ""}) ${fig}\n`);
      },
    });
    const failed = results.filter((r) => r.status !== "ok");
    process.stderr.write(`${results.length - failed.length}/${results.length} trials ok; timings in ${o.results}/timings.tsv and timings-summary.tsv\n`);
    return failed.length ? 1 : 0;
  },
};
