/**
 * Mode `percall` (`measures: [percall]`): each path's calls timed in one process, interleaved
 * (runner/percall/ orchestrates and writes). No resume, shard, jobs or verify; ^C kills the
 * running target at once. The per-call machinery loads when a per-call run starts.
 */
import { percallOptions } from "../percall/options.js";
import type { RunMode } from "./types.js";

/** The per-call mode. */
export const percallMode: RunMode = {
  kind: "percall",
  measures: "time per tool call",
  claims: (matrix) => percallOptions(matrix) !== undefined,
  supports: { resume: false, shard: false, jobs: false, verify: false, strict: false },
  interrupt: "immediate",
  interruptNote: "nothing written: the per-call files are written at the end of a run",
  run: async (matrix, file, o) => (await import("../percall/command.js")).runPercallCommand(matrix, percallOptions(matrix)!, file, o),
};
