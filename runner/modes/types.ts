/**
 * The run-mode plug-in interface, mirroring generators/reports/: each kind of measurement a
 * matrix can ask for (bytes, timing, per-call) is one mode that declares what it supports. The
 * registry (index.ts) picks a matrix's mode; `wirecost run` and `wirecost verify` refuse what a
 * mode does not support, and build every command they print, from these declarations.
 */
import type { Matrix } from "../matrix/types.js";
import type { ResultKind } from "../../format/kinds.js";

/** What a mode supports beyond a plain run (each an option of `wirecost run`, or `wirecost verify`). */
export interface ModeSupport {
  /** `--resume`: continue an interrupted run, keeping finished runs. */
  resume: boolean;
  /** `--shard K/N` and `wirecost merge`. */
  shard: boolean;
  /** `--jobs N`: runs side by side. */
  jobs: boolean;
  /** `wirecost verify`: re-run and compare cell by cell. */
  verify: boolean;
  /** `--strict`: fail a run on its count's first anomaly. */
  strict: boolean;
}

/** The options of `wirecost run`, as every mode receives them (those it does not support are refused before it runs). */
export interface ModeRunOptions {
  /** Results folder. */
  results: string;
  /** Glob patterns on configuration ids; empty = all. */
  only: string[];
  /** Override repeats (bytes) or trials (timing, per-call). */
  repeats?: number;
  jobs?: number;
  shard?: string;
  resume?: boolean;
  fresh?: boolean;
  /** Record a target whose toolchain is missing as skipped instead of refusing. */
  skipMissingToolchains?: boolean;
  /** Bytes runs: fail a run on the first anomaly its count finds instead of counting and naming it. */
  strict?: boolean;
  /**
   * Bytes runs into a folder that holds results: move the new ones in only when every run is ok;
   * otherwise they stay in `<results>/.wirecost-next/` and the folder as it was (`wirecost measure`).
   */
  replaceOnlyIfOk?: boolean;
  /**
   * The command that runs failed or interrupted runs again, printed after `rerun them:` or `run
   * again:` in place of the `wirecost run … --resume` line (`wirecost measure`: its own command
   * line, which writes its matrix and replaces the results only when every run is ok; a `run` of
   * its matrix, not yet written or an earlier measure's, would not).
   */
  rerunCommand?: string;
  /** How long one `revisions: auto` probe waits, ms (runner/execute/probe-revisions.ts); default the matrix's timeout. */
  probeTimeoutMs?: number;
  /** Aborted by the first ^C or SIGTERM (modes whose `interrupt` is `graceful` stop at it). */
  signal: AbortSignal;
  /** The command line, recorded in the results. */
  command: string;
}

/** One run mode. */
export interface RunMode {
  /** The kind of results folder it writes (format/kinds.ts: its marker file and the word messages use). */
  kind: ResultKind;
  /** What it measures, in a few words (`byte counts`, `time per call`), for messages. */
  measures: string;
  /** True when this mode runs `matrix` (its `measures:` key); the registry asks in order. */
  claims(matrix: Matrix): boolean;
  supports: ModeSupport;
  /**
   * What the first ^C does: `graceful`, the mode stops at the abort signal and writes what
   * finished (a second ^C kills at once); `immediate`, targets are killed and the process exits
   * 130 at once, with `interruptNote` printed.
   */
  interrupt: "graceful" | "immediate";
  /** Printed on an immediate interrupt: what was kept (e.g. `nothing written: per-call files are written at the end`). */
  interruptNote?: string;
  /**
   * Run the matrix (already claimed, options already checked against `supports`).
   * @param file the matrix file as the user gave it (printed in every suggested command)
   * @returns the exit code: 0 ok, 1 something failed (recorded), 130 interrupted
   * @throws UserError for what the user can fix before anything runs
   */
  run(matrix: Matrix, file: string, options: ModeRunOptions): Promise<number>;
}
