/**
 * `wirecost measure` through the real CLI on wirecost's own TypeScript v1 server (stdio, then
 * HTTP with --http): the revisions it speaks found by asking it, 2026-07-28 skipped with the line,
 * one call of the named tool per revision, a results folder, a page, and per configuration the
 * total and the tools/list answer's bytes, checked against the run's per-message table, and (stdio)
 * each tool definition's bytes and tokens per revision in tools.tsv. Bad input gets one line.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
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

test("measure refuses a versionless or path-like --npm / --pypi in one line, before it writes anything", async () => {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-measure-args-"));
  try {
    for (const [args, want] of [
      [["--npm", "some-mcp-server"], /^wirecost: --npm some-mcp-server: no version — give the exact version to install/],
      [["--npm", "some-mcp-server@^1.2.0"], /^wirecost: --npm some-mcp-server@\^1\.2\.0: "\^1\.2\.0" is not one exact version/],
      [["--npm", "../x@1.0.0"], /^wirecost: --npm \.\.\/x@1\.0\.0: "\.\.\/x" is not an npm package name/],
      [["--npm", "../x"], /^wirecost: --npm \.\.\/x: "\.\.\/x" is not an npm package name/],
      [["--pypi", "mcp-server-time"], /^wirecost: --pypi mcp-server-time: no version/],
      [["--pypi", "../x==1.0"], /^wirecost: --pypi \.\.\/x==1\.0: "\.\.\/x" is not a PyPI package name/],
    ] as const) {
      const results = join(dir, "results");
      const r = await execa(process.execPath, [cli, "measure", "--results", results, ...args], { cwd: root, reject: false });
      assert.equal(r.exitCode, 1, r.stderr);
      assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
      assert.match(r.stderr, want);
      assert.ok(!existsSync(results), `${args.join(" ")}: nothing written`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a failed measure (a mistyped --tool) leaves the earlier results, measure.yaml, tools.tsv and the page byte-identical", { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-measure-keep-"));
  /** Every file under `d` (relative path → bytes), the staging folder aside. */
  const snapshot = (d: string): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const f of readdirSync(d, { recursive: true, encoding: "utf8" })) {
      if (f.split("/").includes(".wirecost-next")) continue;
      const p = join(d, f);
      if (statSync(p).isFile()) out[f] = readFileSync(p, "latin1");
    }
    return out;
  };
  try {
    const measure = (tool: string) =>
      execa(
        process.execPath,
        [
          cli,
          "measure",
          "--name",
          "v1",
          "--tool",
          tool,
          "--args",
          '{"text":"hi"}',
          "--repeats",
          "1",
          "--results",
          join(dir, "results"),
          "--",
          ...server("stdio"),
        ],
        {
          cwd: root,
          reject: false,
        },
      );
    const ok = await measure("echo");
    assert.equal(ok.exitCode, 0, ok.stderr);
    const before = snapshot(dir);
    assert.ok(before["results/measure.yaml"] && before["results/tools.tsv"] && before["site/v1.html"], Object.keys(before).join(" "));
    const bad = await measure("ecko");
    assert.equal(bad.exitCode, 1, bad.stderr);
    assert.match(bad.stderr, /stay as they were/);
    assert.deepEqual(snapshot(dir), before, "nothing of the earlier measure changed");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
