/**
 * `wirecost measure` through the real CLI on wirecost's own TypeScript v1 server (stdio, then
 * HTTP with --http): the revisions it speaks found by asking it, 2026-07-28 skipped with the line,
 * one call of the named tool per revision, a results folder, a page, and per configuration the
 * total and the tools/list answer's bytes, checked against the run's per-message table, and (stdio)
 * each tool definition's bytes and tokens per revision in tools.tsv. Bad input gets one line.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { cli, root } from "../paths.js";
import { tsv } from "./helpers.js";

const server = (transport: string) => ["node", join(root, "dist/targets/mcp-ts-v1/server.js"), "--transport", transport];

test("measure -- CMD and --http: revisions found, one call each, results, page and figures", { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-measure-"));
  try {
    for (const [how, args] of [
      ["stdio", ["--", ...server("stdio")]],
      ["http", ["--http", `${server("http").join(" ")} --port {port}`]],
    ] as const) {
      const results = join(dir, how, "results");
      const r = await execa(
        process.execPath,
        [cli, "measure", "--name", "v1", "--tool", "echo", "--args", '{"text":"hi"}', "--repeats", "2", "--results", results, ...args],
        { cwd: root, reject: false },
      );
      assert.equal(r.exitCode, 0, `${r.stdout}\n${r.stderr}`);
      assert.match(r.stderr, /^revisions: auto: target v1 speaks 2025-06-18, 2025-11-25$/m);
      assert.match(r.stderr, /^ {2}skipped v1 × 2026-07-28: /m);
      const lines = r.stdout
        .trim()
        .split("\n")
        .filter((l) => l.startsWith("raw-"));
      assert.deepEqual(
        lines.map((l) => l.split("\t")[0]),
        [`raw-v1-${how}-2025-06-18-call`, `raw-v1-${how}-2025-11-25-call`],
      );
      const medians = tsv(join(results, "medians.tsv"));
      for (const line of lines) {
        const [config, , total, , listBytes] = line.split("\t");
        assert.equal(total, medians.find((m) => m.config === config && m.metric === "total_bytes")!.median, `${config} total`);
        const list = tsv(join(results, "logs", config!, "1.messages.tsv")).find((m) => m.dir === "s2c" && m.method === "tools/list");
        assert.equal(listBytes, list!.body_bytes, `${config} tools/list answer bytes`);
        assert.ok(Number(listBytes) > 100);
      }
      assert.ok(existsSync(join(dir, how, "site", "v1.html")), "the page");
      const tools = tsv(join(results, "tools.tsv"));
      if (how === "stdio") {
        // Per revision, each tool definition with its bytes and tokens; the stdout table repeats them.
        for (const revision of ["2025-06-18", "2025-11-25"]) {
          const echo = tools.find((t) => t.revision === revision && t.tool === "echo");
          assert.ok(echo && Number(echo.definition_bytes) > 50 && Number(echo.tokens_o200k_base) > 10 && Number(echo.tokens_cl100k_base) > 10, revision);
          assert.ok(r.stdout.includes(`${revision}\techo\t${echo.definition_bytes}\t${echo.tokens_o200k_base}\t${echo.tokens_cl100k_base}`));
        }
        assert.match(r.stdout, /tokenizers: o200k_base \(js-tiktoken 1\.0\.21\), cl100k_base \(js-tiktoken 1\.0\.21\)/);
      } else {
        assert.equal(tools.length, 0);
        assert.match(r.stderr, /tool definitions are read from stdio logs only/);
      }
      assert.ok(readFileSync(join(results, "measure.yaml"), "utf8").includes('"revisions": "auto"'));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("measure refuses a missing server, --args without --tool and an --http line without {port}, in one line each", async () => {
  for (const [args, want] of [
    [[], /name one server/],
    [["--args", "{}", "--", "node", "x.js"], /--args without --tool/],
    [["--http", "node x.js --port 3000"], /no \{port\}/],
  ] as const) {
    const r = await execa(process.execPath, [cli, "measure", ...args], { cwd: root, reject: false });
    assert.equal(r.exitCode, 1, r.stderr);
    assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
    assert.match(r.stderr, want);
  }
});
