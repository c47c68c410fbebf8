/** The `wirecost run` command lines a mode prints back (resume, rerun, reproduce), built from its declaration. */
import { shellQuote } from "../../format/shell.js";
import type { ModeSupport } from "./types.js";

/**
 * What the bytes mode supports (its declaration in bytes.ts): runner/results/, below the modes,
 * builds the commands for a bytes folder's journal and shards with it.
 */
export const BYTES_SUPPORT: ModeSupport = { resume: true, shard: true, jobs: true, verify: true, strict: true };

/** Parts of a `wirecost run` command line, as {@link runCommandLine} joins them. */
export interface CommandParts {
  only?: readonly string[];
  repeats?: number;
  shard?: string;
  results: string;
  resume?: boolean;
  /** `--fresh` (a run started again as it was given). */
  fresh?: boolean;
  /** `--skip-missing-toolchains`, kept from the run being resumed or rerun (without it the command would refuse those targets). */
  skipMissingToolchains?: boolean;
}

/**
 * A `npx wirecost run …` command for `mode`, always naming the matrix file: the command the user
 * copies to resume, rerun or reproduce. `--resume` and `--shard` appear only where the mode
 * supports them (else the command reruns those configurations whole).
 * @param mode a run mode, or what it supports (runner/results/, below the modes, passes the bytes mode's)
 */
export function runCommandLine(mode: { supports: Pick<ModeSupport, "resume" | "shard"> }, file: string, p: CommandParts): string {
  const args = [
    file,
    ...(p.repeats !== undefined ? ["--repeats", String(p.repeats)] : []),
    ...(p.shard && mode.supports.shard ? ["--shard", p.shard] : []),
    ...(p.only ?? []).flatMap((o) => ["--only", o]),
    "--results",
    p.results,
    ...(p.resume && mode.supports.resume ? ["--resume"] : []),
    ...(p.fresh && !(p.resume && mode.supports.resume) ? ["--fresh"] : []),
    ...(p.skipMissingToolchains ? ["--skip-missing-toolchains"] : []),
  ];
  return `npx wirecost run ${args.map(shellQuote).join(" ")}`;
}
