/**
 * What the profile-window tests share (known-cost.test.ts, profile-windows.test.ts): the matrices
 * of the known-cost and SDK targets, the skip rule for a missing toolchain, a stdio MCP session
 * with a target, and the header check of a folded profile. Not a test file itself.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import type { FoldedProfile } from "../../runner/attribution/folded.js";
import { missingToolchain } from "../../runner/build/toolchain.js";
import { McpSession } from "../../runner/drivers/mcp/session.js";
import { PipelinedStdioWire } from "../../runner/drivers/mcp/pipelined.js";
import { loadMatrix } from "../../runner/matrix/parse.js";
import type { Matrix } from "../../runner/matrix/types.js";
import { spawnTarget, stopTarget } from "../../runner/percall/client.js";
import { root } from "../paths.js";

export const knownCost = loadMatrix(join(root, "targets/known-cost/matrix.yaml"));
export const wire = loadMatrix(join(root, "matrix.yaml"));
export const a2a = loadMatrix(join(root, "matrices/a2a-layer-cost.yaml"));

/** Why `name` of `matrix` cannot be built here: skipped with the reason, except under CI=true (as .ci/run runs), where it is required. */
export function skipUnless(matrix: Matrix, name: string): string | false {
  const missing = missingToolchain(matrix.targets[name]!, dirname(matrix.file));
  return missing && process.env.CI !== "true" ? `${missing} (CI=true requires it)` : false;
}

/** The functions of known cost in every known-cost target. */
export type KnownFunction = "parse_and_validate" | "do_work" | "build_result";
/** Each known-cost target's frame for each named function. */
export const FRAMES: Record<string, Record<KnownFunction, string>> = {
  "known-cost-go": { parse_and_validate: "main.parseAndValidate", do_work: "main.doWork", build_result: "main.buildResult" },
  "known-cost-rust": {
    parse_and_validate: "known_cost_rust::mcp::parse_and_validate",
    do_work: "known_cost_rust::mcp::do_work",
    build_result: "known_cost_rust::mcp::build_result",
  },
};
/** The revision the stdio sessions speak. */
export const REVISION = "2025-11-25";
/** Wait `ms`. */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A stdio session with target `name` of `matrix`, its profile going to a fresh file (or none). */
export async function stdioSession(matrix: Matrix, name: string, env: Record<string, string>) {
  const command = matrix.targets[name]!.commands.stdio!;
  const spec = {
    command: { ...command, env: { ...command.env, ...env } },
    values: {},
    transport: "stdio" as const,
    revision: REVISION,
    cwd: dirname(matrix.file),
    timeoutMs: 30_000,
  };
  const { proc, exited } = await spawnTarget(spec, 0);
  const stdio = new PipelinedStdioWire(proc.child.stdin!, proc.child.stdout!, spec.timeoutMs);
  void exited.then((e) => stdio.failAll(e));
  const session = new McpSession(stdio, REVISION);
  await session.open();
  return { proc, session, stop: () => stopTarget(proc, "stdio") };
}

/** The header every profile carries: the profiler with its version and a positive interval. */
export function assertHeader(profile: FoldedProfile, profiler: RegExp): void {
  assert.match(profile.meta.profiler ?? "", profiler);
  assert.ok(Number(profile.meta.interval_us) > 0, `interval_us=${profile.meta.interval_us}`);
}
