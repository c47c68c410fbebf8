/** The bound on `--jobs` (a light module: the command line checks it before loading the runner). */
import { availableParallelism } from "node:os";
import { UserError } from "../../format/errors.js";

/**
 * The most runs `--jobs` may put side by side on this machine: 4 per core, at most 64. Beyond
 * that runs only contend for the CPU (and each holds a target process and a relay).
 */
export function maxJobs(): number {
  return Math.min(64, 4 * availableParallelism());
}

/**
 * The default `--jobs` of a bytes run: two per core. A run spends part of its time waiting, not
 * computing (while its target's port is polled, while a stopped target shuts down gracefully:
 * uvicorn takes about 0.2 s), and a second run per core fills those waits. Measured on 2 cores,
 * the default matrix (2,180 runs, 2 December 2026): three jobs ran 1.13× its CPU floor, four 1.07×
 * (one per core: 1.12× on the 1,910 runs before Python servers were forked).
 */
export function defaultJobs(): number {
  return 2 * availableParallelism();
}

/**
 * Check a `--jobs` value against {@link maxJobs}.
 * @throws UserError naming the bound and the default
 */
export function checkJobs(jobs: number): void {
  const max = maxJobs();
  if (!Number.isInteger(jobs) || jobs < 1 || jobs > max)
    throw new UserError(
      `--jobs ${jobs}: takes 1 to ${max} on this machine (4 per core, ${availableParallelism()} cores, at most 64) — pass --jobs ${max} or fewer, or leave it out (two per core)`,
    );
}
