/**
 * A tools/call the server answers with a JSON-RPC error is the server's answer, not a failed run:
 * the real CLI runs the MCP SDK v2 server (which answers an unknown tool with -32602) on both
 * transports and eras; every such run is ok, its bytes counted (the error's row in the per-message
 * table, the log's bytes), and the tool catalog files name what the server answered. A
 * configuration with no ok repeat (the step expects an answer the server does not give) still gets
 * its tool catalog, from the tools/list answer its failed run captured, with a finding that says so.
 * The page says both, escaped.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { cli, root } from "../paths.js";
import { tsv } from "../execute/helpers.js";
import { writeToolCatalog } from "../../runner/results/tool-catalog.js";

const CONFIGS = ["http", "stdio"].flatMap((t) => ["2025-11-25", "2026-07-28"].map((r) => `raw-mcp-ts-v2-${t}-${r}`));

test("a tools/call answered with a JSON-RPC error is a counted run and a finding; a configuration with no ok repeat gets its catalog from its log", {
  timeout: 180_000,
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-tool-call-error-"));
  try {
    const results = join(dir, "results");
    const run = await execa(process.execPath, [cli, "run", "test/fixtures/tool-call-error.yaml", "--results", results], { cwd: root, reject: false });
    // The wrong-answer runs fail (exit 1); the unknown-tool runs are ok.
    assert.equal(run.exitCode, 1, run.stderr);
    const runs = tsv(join(results, "runs.tsv"));
    for (const c of CONFIGS) {
      assert.equal(runs.find((r) => r.config === `${c}-unknown-tool`)?.status, "ok", `${c}: ${run.stderr}`);
      assert.equal(runs.find((r) => r.config === `${c}-wrong-answer`)?.status, "failed", c);
    }
    // Counted: the error's row in the per-message table, its bytes the log's, and the row's totals the log's.
    for (const c of CONFIGS) {
      const config = `${c}-unknown-tool`;
      const messages = tsv(join(results, "logs", config, "1.messages.tsv"));
      const error = messages.find((m) => m.dir === "s2c" && m.method === "tools/call" && m.kind === "error");
      assert.ok(error, `${config}: ${JSON.stringify(messages)}`);
      const logged = Buffer.concat(
        readFileSync(join(results, "logs", config, "1.jsonl"), "utf8")
          .split("\n")
          .filter((l) => l)
          .map((l) => JSON.parse(l) as { dir: string; b64?: string })
          .filter((o) => o.dir === "s2c" && o.b64 !== undefined)
          .map((o) => Buffer.from(o.b64!, "base64")),
      ).toString("utf8");
      // The error message as the server wrote it: from its `{"jsonrpc"` to the end of its error object.
      const at = logged.indexOf('"error":{"code":-32602,"message":"Tool no_such_tool not found"}}');
      assert.ok(at > 0, logged);
      const text = logged.slice(logged.lastIndexOf('{"jsonrpc"', at), at + '"error":{"code":-32602,"message":"Tool no_such_tool not found"}}'.length);
      assert.equal((JSON.parse(text) as { error: { code: number } }).error.code, -32602);
      assert.equal(Number(error.body_bytes), Buffer.byteLength(text), config);
      const row = runs.find((r) => r.config === config)!;
      assert.equal(Number(row.s2c_bytes), Buffer.byteLength(logged), config);
    }
    // The catalog files: the answer named per configuration; the failed configurations' catalogs from their logs.
    const { tools, findings } = writeToolCatalog(results);
    for (const c of CONFIGS) {
      assert.deepEqual(
        findings.filter((f) => f.config === `${c}-unknown-tool`).map((f) => [f.repeat, f.finding]),
        [[1, 'the server answered tools/call with JSON-RPC error -32602: "Tool no_such_tool not found"']],
      );
      const failed = findings.filter((f) => f.config === `${c}-wrong-answer`);
      assert.equal(failed.length, 1, JSON.stringify(failed));
      assert.match(
        failed[0]!.finding,
        /^no repeat ok: its tool catalog is read from this repeat's capture log \(failed: echo answered "hi", expected "not hi"/,
      );
      for (const flow of ["unknown-tool", "wrong-answer"])
        assert.deepEqual(
          tools.filter((t) => t.config === `${c}-${flow}`).map((t) => t.tool),
          ["echo", "add", "confirm"],
          `${c}-${flow}`,
        );
    }
    // A failed configuration stays out of the revision comparison.
    assert.ok(tsv(join(results, "tools-changes.tsv")).every((r) => !r.head_config?.endsWith("wrong-answer") && !r.base_config?.endsWith("wrong-answer")));
    // The page says what the server answered, escaped.
    await execa(process.execPath, [cli, "render", "--results", results, "--site", join(dir, "site")], { cwd: root });
    const page = readFileSync(join(dir, "site", "tool-call-error-matrix.md"), "utf8");
    assert.ok(
      page.includes(
        '- `raw-mcp-ts-v2-stdio-2025-11-25-unknown-tool`, repeat 1: the server answered tools/call with JSON-RPC error -32602: "Tool no\\_such\\_tool not found"',
      ),
      page,
    );
    assert.match(page, /- `raw-mcp-ts-v2-stdio-2026-07-28-wrong-answer`, repeat 1: no repeat ok: its tool catalog is read from this repeat's capture log/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("under the MCP TypeScript SDK clients (v1, v2) too, a tools/call answered with a JSON-RPC error is a counted run; an answer the step does not expect fails it", {
  timeout: 180_000,
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-tool-call-error-sdk-"));
  try {
    const results = join(dir, "results");
    const run = await execa(process.execPath, [cli, "run", "test/fixtures/tool-call-error-sdk.yaml", "--results", results], { cwd: root, reject: false });
    assert.equal(run.exitCode, 1, run.stderr);
    const runs = tsv(join(results, "runs.tsv"));
    assert.equal(runs.length, 8, JSON.stringify(runs.map((r) => r.config)));
    for (const r of runs) {
      if (r.config!.endsWith("-wrong-answer")) {
        assert.equal(r.status, "failed", r.config);
        assert.match(r.error!, /echo answered "hi", expected "not hi"/, r.config);
        continue;
      }
      assert.equal(r.status, "ok", `${r.config}: ${r.error}`);
      const messages = tsv(join(results, "logs", r.config!, "1.messages.tsv"));
      assert.ok(
        messages.some((m) => m.dir === "s2c" && m.method === "tools/call" && m.kind === "error"),
        `${r.config}: the error answer counted: ${JSON.stringify(messages)}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
