/**
 * Tests that need a tool wirecost does not install (Debian's chromium for the page tests, tshark
 * for the wire cross-check): on a machine without it they are skipped with one line naming the
 * install command, so `npm test` passes on a fresh clone; with `CI=true` (what `.ci/run` and CI
 * services set) they are required and fail with that line instead. `WIRECOST_NO_<TOOL>=1` skips
 * them on purpose, CI or not.
 */
import { findProgram } from "../runner/build/toolchain.js";

/** What {@link toolSkip} decides from. */
export interface ToolNeed {
  /** The tool as a person names it (`chromium`, `tshark`). */
  tool: string;
  /** Is it here (and usable)? */
  found: boolean;
  /** Why it is not usable when it is installed (e.g. `capturing on lo needs root`), if that is the case. */
  unusable?: string;
  /** The command that installs it (e.g. `apt-get install chromium`). */
  install: string;
  /** The variable that skips the test on purpose (e.g. `WIRECOST_NO_BROWSER`). */
  optOut: string;
}

/** Is `CI` set to a value that means yes (`true`, `1`)? GitHub Actions and most CI services set `CI=true`. */
export function inCi(env: NodeJS.ProcessEnv = process.env): boolean {
  return /^(true|1)$/i.test(env.CI ?? "");
}

/**
 * The `skip` option of a test that needs `need.tool`: the skip line, or false when it runs (the
 * tool is here, or `CI=true` requires it: the test then fails with its own message).
 */
export function toolSkip(need: ToolNeed, env: NodeJS.ProcessEnv = process.env): string | false {
  if (env[need.optOut] === "1") return `${need.optOut}=1: ${need.tool} test skipped on request`;
  if (inCi(env)) return false;
  if (!need.found) return `${need.tool} not found — install it: ${need.install} (with CI=true this test is required)`;
  if (need.unusable) return `${need.unusable} (with CI=true this test is required)`;
  return false;
}

/** The absolute path of `program` on PATH (`env.PATH`), undefined when it is not there. */
export function onPath(program: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return findProgram(program, process.cwd(), env.PATH ?? "");
}
