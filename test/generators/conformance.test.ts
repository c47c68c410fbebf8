/**
 * Conformance beside the bytes: `conformance.tsv` (format/conformance.ts) read back as written, a
 * bad verdict refused at its line, each scenario's verdict from the suite's checks
 * (runner/conformance/run.ts `verdictOf`), and the wire report's section
 * (generators/sections/conformance.ts): counts per server, failures with their messages, the
 * not-applicable answers grouped, the suite's command, and every text from the suite escaped.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { conformanceTsv, readConformance, type ConformanceRow } from "../../format/conformance.js";
import { UserError } from "../../format/errors.js";
import { mcpOnTheWire } from "../../generators/pages/mcp-on-the-wire.js";
import { loadResults } from "../../generators/results/load.js";
import { conformanceView } from "../../generators/sections/conformance.js";
import { verdictOf } from "../../runner/conformance/run.js";
import { fixtureCopy, tempDir } from "./support.js";

const EVIL = "<script>alert(1)</script> | `x` [a](javascript:alert(1))";

const row = (target: string, scenario: string, verdict: ConformanceRow["verdict"], extra: Partial<ConformanceRow> = {}): ConformanceRow => ({
  target,
  package: "mcp",
  version: "2.2.0",
  suite: "@modelcontextprotocol/conformance 0.1.16",
  node: "v22.23.5",
  scenario,
  verdict,
  checksPassed: verdict === "passed" ? 1 : 0,
  checksFailed: verdict === "passed" ? 0 : 1,
  reason: verdict === "not applicable" ? "the catalog has no tool test_simple_text" : "",
  message: verdict === "passed" ? "" : "Tool not found",
  ...extra,
});

test("conformance.tsv reads back as written; a verdict it does not know is refused at its line", () => {
  const file = join(tempDir("conformance"), "conformance.tsv");
  const rows = [row("python-sdk", "ping", "passed"), row("python-sdk", "tools-call-simple-text", "not applicable", { message: "a\ttab" })];
  writeFileSync(file, conformanceTsv(rows));
  assert.deepEqual(readConformance(file), [rows[0], { ...rows[1], message: "a tab" }]);
  writeFileSync(file, conformanceTsv(rows).replace("\tpassed\t", "\tok\t"));
  assert.throws(
    () => readConformance(file),
    (e: unknown) => e instanceof UserError && /conformance\.tsv:2: verdict "ok"/.test(e.message),
  );
  assert.equal(readConformance(join(tempDir("conformance"), "none.tsv")), undefined);
});

test("a scenario's verdict: passed only when every check succeeded; else not applicable where the catalog lacks the fixture, else failed", () => {
  const ok = { status: "SUCCESS" };
  const bad = { status: "FAILURE", errorMessage: "Expected JSON-RPC error -32602" };
  assert.deepEqual(verdictOf("ping", [ok, { status: "INFO" }]), { verdict: "passed", checksPassed: 1, checksFailed: 0, reason: "", message: "" });
  assert.deepEqual(verdictOf("ping", [ok, bad]), {
    verdict: "failed",
    checksPassed: 1,
    checksFailed: 1,
    reason: "",
    message: "Expected JSON-RPC error -32602",
  });
  assert.equal(verdictOf("ping", []).verdict, "failed", "no check at all is no pass");
  assert.deepEqual(verdictOf("tools-call-simple-text", [bad]), {
    verdict: "not applicable",
    checksPassed: 0,
    checksFailed: 1,
    reason: "the catalog has no tool test_simple_text",
    message: "Expected JSON-RPC error -32602",
  });
  assert.equal(verdictOf("tools-call-simple-text", [ok]).verdict, "passed", "a scenario the catalog happens to serve counts as passed");
  assert.deepEqual(verdictOf("server-initialize", undefined, "connect ECONNREFUSED"), {
    verdict: "failed",
    checksPassed: 0,
    checksFailed: 0,
    reason: "",
    message: "the suite did not run it: connect ECONNREFUSED",
  });
});

test("the wire report shows each server's counts, its failures and the not-applicable answers, escaped", async () => {
  const dir = fixtureCopy();
  const rows = [
    row("python-sdk", "server-initialize", "passed"),
    row("python-sdk", "ping", "failed", { message: EVIL }),
    row("python-sdk", "tools-call-simple-text", "not applicable"),
    row("other-sdk", "server-initialize", "passed", { package: "other", version: "1.0.0" }),
    row("other-sdk", "ping", "passed", { package: "other", version: "1.0.0" }),
    row("other-sdk", "tools-call-simple-text", "not applicable", { package: "other", version: "1.0.0" }),
  ];
  writeFileSync(join(dir, "conformance.tsv"), conformanceTsv(rows));
  const results = loadResults(dir);
  const view = conformanceView(results, (t) => t);
  assert.ok(view);
  assert.deepEqual(view.counts.rows, [
    ["python-sdk", "mcp 2.2.0", "1", "1", "1", "server-initialize"],
    ["other-sdk", "other 1.0.0", "2", "0", "1", "server-initialize, ping"],
  ]);
  assert.equal(view.failures?.rows.length, 1);
  assert.deepEqual(view.notApplicable?.rows, [["tools-call-simple-text", "the catalog has no tool test\\_simple\\_text", "Tool not found", "every server"]]);
  const built = await mcpOnTheWire.build(results, { predictions: undefined, configPage: (c) => `config-${c}` });
  const md = typeof built === "string" ? built : built.markdown;
  assert.match(md, /## Conformance beside the bytes/);
  assert.match(md, /`npx wirecost conformance --results \/tmp\/wirecost-conformance`/);
  assert.doesNotMatch(md, /<script>/, "the suite's message is escaped");
  assert.ok(md.includes("\\<script\\>alert(1)\\</script\\> \\| \\`x\\` \\[a\\](javascript:alert(1))"), "the message, escaped, in its cell");
  // A folder without the file has no section.
  const plain = await mcpOnTheWire.build(loadResults(fixtureCopy()), { predictions: undefined, configPage: (c) => `config-${c}` });
  assert.doesNotMatch(typeof plain === "string" ? plain : plain.markdown, /Conformance beside the bytes/);
});
