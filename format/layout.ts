/**
 * The results folder's layout: every file and folder name a results folder holds, for all report
 * kinds. The runner writes and the generators read these paths; nobody else spells them.
 *
 * Bytes (wire) results: the journal `runs/plan.json` and `runs/<config>/<repeat>.json` is the
 * record; `runs.tsv`, `summary.tsv`, `medians.tsv`, `coverage.tsv` and `provenance.json` are
 * rebuilt from it; `logs/<config>/<repeat>.jsonl` is one run's capture log and
 * `logs/<config>/<repeat>.messages.tsv` its per-message breakdown (format/messages.ts).
 * Timing results: `timings.tsv`, `timings-summary.tsv`, `timings-run.json`,
 * `timings/<config>/trial-<n>.json`, and for a cpu run's profiled windows `timings-stages.tsv` and
 * `profiles/<config>/server.folded` (format/attribution.ts). Per-call results: `percall.tsv`, `percall-payload.tsv`,
 * `percall-samples.tsv`, `percall-run.json` (format/percall.ts); the profiled trials'
 * `percall-profiled.tsv`, `percall-stages.tsv`, `percall-unclassified.tsv` and
 * `profiles/<config>/<client|server>.folded` (format/attribution.ts).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "./errors.js";

/** The journal's plan file in `runs/` (beside the configurations' folders, so no configuration id may be this name). */
const PLAN_FILE = "plan.json";

/**
 * Page names (file stems) that `render` writes for itself whatever the results: the site index
 * (generators/pages/home.ts INDEX_ID, `index.md`, `index.html`). A bytes report's `slug:` names
 * its pages, so none of these may be a slug: its page would overwrite the index (refused at
 * `expand`, and by `render` for a results folder that records one). Two reports writing one page
 * otherwise (a slug that is another report's page) are refused by `render` when rendered together.
 */
export const RESERVED_SLUGS: readonly string[] = ["index"];

/**
 * Most UTF-8 bytes of a name that becomes part of a file name (a configuration id, a target or
 * version value naming a build folder). Linux and macOS take 255 bytes per file name; the longest
 * name made from an id adds 52 (`config-<slug>--<id>-exchanges.html` takes ids up to the site's own
 * limit, and `<id>-<warm-up>.jsonl`, `<repeat>.client-stderr.txt` are shorter), so 200 leaves room.
 */
export const MAX_NAME_BYTES = 200;

/**
 * Why `name` cannot be one file name inside a results (or build) folder, or undefined when it
 * can. A name is refused when it is empty, `.` or `..`, `plan.json` (the journal's plan beside
 * the configurations' folders in `runs/`), holds `/`, `\`, NUL or another control character, or is
 * longer than {@link MAX_NAME_BYTES} bytes in UTF-8. This is the one check of
 * every name made from a configuration id or an axis value: `expand` refuses such a value at its
 * `file:line:col`, the readers refuse it in a results file, and the path builders below refuse it
 * last, so nothing made from a name leaves the folder it is joined to.
 * @returns the problem, worded to follow the name (e.g. `holds "/"`)
 */
export function nameProblem(name: string): string | undefined {
  if (name === "") return "is empty";
  if (name === "." || name === "..") return `is "${name}", a folder of the path`;
  if (name === PLAN_FILE) return `is "${PLAN_FILE}", the name of the journal's plan in runs/`;
  const bad = /[/\\\u0000-\u001f\u007f]/.exec(name);
  if (bad) return `holds ${JSON.stringify(bad[0])}, which a file name cannot hold`;
  const bytes = Buffer.byteLength(name, "utf8");
  if (bytes > MAX_NAME_BYTES) return `is ${bytes} bytes long, more than the ${MAX_NAME_BYTES} a file name made from it may take`;
  return undefined;
}

/**
 * `name` itself when it can be one file name ({@link nameProblem}).
 * @param what what the name is, for the message (e.g. `configuration id`)
 * @throws UserError naming the name (cut to 60 characters), why, and the fix
 */
export function checkedName(name: string, what = "configuration id"): string {
  const problem = nameProblem(name);
  if (problem === undefined) return name;
  const shown = name.length > 60 ? `${name.slice(0, 60)}…` : name;
  throw new UserError(
    `${what} ${JSON.stringify(shown)}: ${problem} — a ${what} names files in the results folder; rename it in the matrix (the axis value or the axis' id template), then run again`,
  );
}

/** File names directly in a results folder, by what they hold. */
export const RESULTS_FILES = {
  /** Bytes: one row per configuration × repeat (counts, status, digest). */
  runs: "runs.tsv",
  /** Bytes: one row per configuration (axis values, repeats ok, identity of repeats). The marker of a bytes folder. */
  summary: "summary.tsv",
  /** Bytes: configuration, metric, min, median, max over ok repeats. */
  medians: "medians.tsv",
  /** Bytes: every expanded cell and what became of it. */
  coverage: "coverage.tsv",
  /** Bytes: what produced the folder (format/schema.ts). */
  provenance: "provenance.json",
  /** Bytes, matrices with a `version` axis: each change between consecutive versions and its cause (format/changes.ts). */
  changes: "changes.tsv",
  /** Bytes (the wire report): the MCP conformance suite's verdict per target and scenario, written by `wirecost conformance` (format/conformance.ts). */
  conformance: "conformance.tsv",
  /** Timing: one row per (trial, metric). */
  timings: "timings.tsv",
  /** Timing: per (configuration, metric) over ok trials. The marker of a timing folder. */
  timingsSummary: "timings-summary.tsv",
  /** Timing: machine, order, parameters, assumptions, trials. */
  timingsRun: "timings-run.json",
  /** Timing (cpu): the server's CPU per request by stage, from a profiled window (format/attribution.ts). */
  timingsStages: "timings-stages.tsv",
  /** Per-call: one row per configuration (path). The marker of a per-call folder. */
  percall: "percall.tsv",
  /** Per-call: per (configuration, limit). */
  percallPayload: "percall-payload.tsv",
  /** Per-call: every sample, long format. */
  percallSamples: "percall-samples.tsv",
  /** Per-call: title, matrix, parameters, assumptions, runs. */
  percallRun: "percall-run.json",
  /** Per-call: one row per configuration's profiled trial (format/attribution.ts). */
  percallProfiled: "percall-profiled.tsv",
  /** Per-call: the stage table of every profiled trial, one row per (configuration, process, stage). */
  percallStages: "percall-stages.tsv",
  /** Per-call: the most sampled leaf functions of each profiled trial's unclassified samples. */
  percallUnclassified: "percall-unclassified.tsv",
} as const;

/** Folders directly in a results folder: the run journal and the capture logs (bytes), the trials (timing). */
export const RESULTS_FOLDERS = { journal: "runs", logs: "logs", trials: "timings", profiles: "profiles" } as const;

/**
 * `.wirecost-lock`: held by the wirecost process writing the folder (its pid, host, start time and
 * command, JSON), created atomically before anything else is written and removed when that process
 * ends (runner/results/lock.ts). Never part of the results.
 */
export const LOCK_FILE = ".wirecost-lock";

/** `<dir>/.wirecost-lock`: see {@link LOCK_FILE}. */
export function lockPath(dir: string): string {
  return join(dir, LOCK_FILE);
}

/**
 * `.wirecost-targets/`: beside the lock, one file per target process the lock's holder started
 * and has not stopped yet (`<pid>.json`: pid, process start time, command), so that the next
 * writer of the folder can stop targets left by a writer that died (runner/targets/watch.ts).
 * Removed when empty. Never part of the results.
 */
export const TARGETS_DIR = ".wirecost-targets";

/**
 * `.wirecost-next/`: where a run or merge into a folder that already holds results writes the new
 * ones (a results folder of its own), so the old ones stay until the new journal is complete;
 * then they are swapped in (runner/results/swap.ts). An interrupted run leaves it for `--resume`.
 * Never part of the results (hidden: render skips it).
 */
export const STAGING_FOLDER = ".wirecost-next";

/** `<dir>/.wirecost-next`: see {@link STAGING_FOLDER}. */
export function stagingDir(dir: string): string {
  return join(dir, STAGING_FOLDER);
}

/**
 * The repeat number a journal file's name gives, when it is one the journal of a configuration
 * with `repeats` planned repeats names: in `runs/<config>/` `<repeat>.json`, in `logs/<config>/`
 * `<repeat>.jsonl`, `.messages.tsv`, `.anomalies.tsv`, `.client-stdout.txt` or
 * `.client-stderr.txt`, or the temp file of one left by a killed atomic write (`<name>.<pid>.tmp`,
 * format/files.ts); `<repeat>` written as a run writes it (1 to `repeats`, no leading zero).
 * Any other name (`7.json` beside 5 planned repeats, `01.json`, `notes.txt`) is not the journal's.
 * @returns the repeat (1-based), or undefined for a name the journal does not name
 */
export function journalRepeat(folder: "runs" | "logs", name: string, repeats: number): number | undefined {
  const base = name.replace(/\.[0-9]+\.tmp$/, "");
  const m =
    folder === "runs"
      ? /^([1-9][0-9]*)\.json$/.exec(base)
      : /^([1-9][0-9]*)\.(jsonl|messages\.tsv|anomalies\.tsv|client-stdout\.txt|client-stderr\.txt)$/.exec(base);
  const repeat = m ? Number(m[1]) : undefined;
  return repeat !== undefined && repeat <= repeats ? repeat : undefined;
}

/**
 * Whether `name` is a file the journal of a configuration with `repeats` planned repeats names in
 * `runs/<config>/` or `logs/<config>/` ({@link journalRepeat}): the only files a run, verify or
 * merge moves or removes from those folders.
 */
export function isJournalFileName(folder: "runs" | "logs", name: string, repeats: number): boolean {
  return journalRepeat(folder, name, repeats) !== undefined;
}

/** The files a bytes folder's journal rebuilds (removed when a folder is started afresh). */
export const REBUILT_FILES: readonly string[] = [
  RESULTS_FILES.runs,
  RESULTS_FILES.summary,
  RESULTS_FILES.medians,
  RESULTS_FILES.coverage,
  RESULTS_FILES.provenance,
  RESULTS_FILES.changes,
];

/** `<dir>/<name>` for a file of {@link RESULTS_FILES}. */
export function resultsFile(dir: string, name: keyof typeof RESULTS_FILES): string {
  return join(dir, RESULTS_FILES[name]);
}

/**
 * `profiles/<config>/<process>.folded`: the folded stacks of one configuration's profiled trial,
 * one file per process (client, server), as the results folder's relative path (the row links it).
 * @throws UserError when `config` cannot be a file name ({@link checkedName})
 */
export function profileRelPath(config: string, process: "client" | "server"): string {
  return `${RESULTS_FOLDERS.profiles}/${checkedName(config)}/${process}.folded`;
}

/** `runs/plan.json`: what the folder was asked to hold, written before the first run. */
export function planPath(dir: string): string {
  return join(dir, RESULTS_FOLDERS.journal, PLAN_FILE);
}

/** `runs/<config>/`: the journal folder of one configuration. */
export function journalDir(dir: string, config: string): string {
  return join(dir, RESULTS_FOLDERS.journal, checkedName(config));
}

/** `runs/<config>/<repeat>.json`: one finished run (repeat 1-based). */
export function runRecordPath(dir: string, config: string, repeat: number): string {
  return join(journalDir(dir, config), `${repeat}.json`);
}

/** `logs/<config>/`: the capture logs and message breakdowns of one configuration. */
export function logDir(dir: string, config: string): string {
  return join(dir, RESULTS_FOLDERS.logs, checkedName(config));
}

/** `logs/<config>/<repeat>.jsonl`: one run's capture log (runner/capture/log.ts). */
export function captureLogPath(dir: string, config: string, repeat: number): string {
  return join(logDir(dir, config), `${repeat}.jsonl`);
}

/** `logs/<config>/<repeat>.messages.tsv`: one run's per-message breakdown (format/messages.ts). */
export function messagesPath(dir: string, config: string, repeat: number): string {
  return join(logDir(dir, config), `${repeat}.messages.tsv`);
}

/** `logs/<config>/<repeat>.anomalies.tsv`: one run's anomalies (format/anomalies.ts); absent when it had none. */
export function anomaliesPath(dir: string, config: string, repeat: number): string {
  return join(logDir(dir, config), `${repeat}.anomalies.tsv`);
}

/** The anomalies.tsv beside any capture log `<name>.jsonl`. */
export function anomaliesPathOf(captureLog: string): string {
  return captureLog.replace(/\.jsonl$/, "") + ".anomalies.tsv";
}

/**
 * `<repeat>.client-stdout.txt` / `<repeat>.client-stderr.txt` beside a capture log `<repeat>.jsonl`:
 * what a declared client (matrix `clients:`) wrote in that run, kept with it (at most
 * CLIENT_OUTPUT_MAX_BYTES each, the rest cut).
 */
export function clientOutputPathOf(captureLog: string, stream: "stdout" | "stderr"): string {
  return captureLog.replace(/\.jsonl$/, "") + `.client-${stream}.txt`;
}

/** Most bytes of a declared client's stdout or stderr kept per run (clientOutputPathOf). */
export const CLIENT_OUTPUT_MAX_BYTES = 1 << 20;

/** The messages.tsv beside any capture log `<name>.jsonl` (warm-up logs outside a results folder too). */
export function messagesPathOf(captureLog: string): string {
  return captureLog.replace(/\.jsonl$/, "") + ".messages.tsv";
}

/** The repeat number of a capture log's file name (`7.jsonl` → 7), undefined for any other name. */
export function captureLogRepeat(name: string): number | undefined {
  const m = /^([0-9]+)\.jsonl$/.exec(name);
  return m ? Number(m[1]) : undefined;
}

/** `timings/<config>/trial-<n>.json`: one timing trial whole, raw histograms included. */
export function trialPath(dir: string, config: string, trial: number): string {
  return join(dir, RESULTS_FOLDERS.trials, checkedName(config), `trial-${trial}.json`);
}

/**
 * The matrix file a results folder records it was run from (as given to `wirecost run`, relative
 * to where the run started): `runs/plan.json` `matrix.file` (bytes), `timings-run.json` or
 * `percall-run.json` `matrix` (timing, per-call), else `provenance.json` `matrix.file` (a bytes
 * folder whose plan cannot be read).
 * @returns undefined when the folder records none, or its record does not parse
 */
export function recordedMatrix(dir: string): string | undefined {
  const read = (file: string, pick: (json: Record<string, unknown>) => unknown): string | undefined => {
    if (!existsSync(file)) return undefined;
    try {
      const v = pick(JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>);
      return typeof v === "string" ? v : undefined;
    } catch {
      return undefined;
    }
  };
  return (
    read(planPath(dir), (j) => (j.matrix as Record<string, unknown> | undefined)?.file) ??
    read(resultsFile(dir, "timingsRun"), (j) => j.matrix) ??
    read(resultsFile(dir, "percallRun"), (j) => j.matrix) ??
    read(resultsFile(dir, "provenance"), (j) => (j.matrix as Record<string, unknown> | undefined)?.file)
  );
}
