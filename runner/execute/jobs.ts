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
 * Check a `--jobs` value against {@link maxJobs}.
 * @throws UserError naming the bound and the default
 */
export function checkJobs(jobs: number): void {
  const max = maxJobs();
  if (!Number.isInteger(jobs) || jobs < 1 || jobs > max)
    throw new UserError(
      `--jobs ${jobs}: takes 1 to ${max} on this machine (4 per core, ${availableParallelism()} cores, at most 64) — pass --jobs ${max} or fewer, or leave it out (one per core)`,
    );
}
