/**
 * The per-call stage-attribution files (format/layout.ts names them; README "How to read a stage
 * table"): their columns. The runner (runner/percall/files.ts, from runner/percall/profiled.ts)
 * writes them; generators/results/percall.ts reads them.
 * - `percall-profiled.tsv`: one row per configuration's profiled trial: status (`ok` or `failed`
 *   with the reason), timed calls, the window's wall time per call (µs), the profiled calls' own
 *   stopwatch (p50 and mean µs), the same calls with the same phase pauses and no sampler just
 *   before the window (wall time per call, µs; empty for a harness path: check (b)'s reference),
 *   the sum of the stage rows (µs per call, empty when a row has no time), which sampler profiled
 *   each process (`v8@…`, `py-spy`, `self`, or `none`) and the results-folder-relative path of each process's folded stacks (empty without a profile), the
 *   direct path check (b) compares with (`direct_config`);
 * - `percall-stages.tsv`: the stage table, one row per (configuration, process, stage): the stage's
 *   label and kind (the vocabulary's, runner/attribution/stages.ts), samples (empty for measured
 *   rows), µs per call (empty when not measured: `note` says why) and the note
 *   (`not attributed: <reason>`);
 * - `percall-unclassified.tsv`: per configuration and process, the most sampled leaf frames of the
 *   unclassified samples, with samples and µs per call;
 * - `timings-stages.tsv` (timing folders that measure cpu, for targets with `profile:`): per
 *   configuration, the server's CPU per request by stage from a profiled window in its first trial
 *   (after the timed window, same process): the sampler, the window's measured CPU per request (µs;
 *   the rows sum to it), and per stage its label, kind, samples and µs per request, or the note
 *   `not attributed: <reason>`.
 */

/**
 * The kinds a stage adds up to in the subtotals, in the order pages list them (the `kind` column of
 * the stage files). Validation = build-validate + parse-validate + parse-result (the seed's reading).
 */
export const STAGE_KIND_ORDER = [
  "validation",
  "scheduling",
  "serialisation",
  "transport",
  "dispatch",
  "work",
  "runtime",
  "measurement",
  "kernel",
  "unclassified",
  "not attributed",
] as const;

/** One of {@link STAGE_KIND_ORDER}. */
export type StageKind = (typeof STAGE_KIND_ORDER)[number];

/** Columns of `percall-profiled.tsv`, in order. */
export const PROFILED_COLUMNS = [
  "config",
  "status",
  "calls",
  "window_us_per_call",
  "profiled_p50_us",
  "profiled_mean_us",
  "paused_us_per_call",
  "stages_sum_us",
  "adjacent_us_per_call",
  "client_sampler",
  "server_sampler",
  "client_profile",
  "server_profile",
  "direct_target",
  "reason",
] as const;

/** Columns of `percall-stages.tsv`, in order. */
export const STAGE_COLUMNS = ["config", "process", "stage", "label", "kind", "samples", "us_per_call", "note"] as const;

/** Columns of `percall-unclassified.tsv`, in order. */
export const UNCLASSIFIED_COLUMNS = ["config", "process", "frame", "samples", "us_per_call"] as const;

/** Columns of `timings-stages.tsv`, in order. */
export const TIMING_STAGE_COLUMNS = ["config", "sampler", "window_cpu_per_request_us", "stage", "label", "kind", "samples", "us_per_request", "note"] as const;
