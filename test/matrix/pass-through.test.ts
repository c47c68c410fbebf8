/**
 * Pass-through axes: an axis added in YAML alone reaches the target — as {name} in argv and env
 * and as WIRECOST_<NAME> — with no code change. The env-echo fixture target prints what it got.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { startTarget } from "../../runner/targets/process.js";
import { expand } from "../../runner/matrix/expand.js";
import { loadMatrix } from "../../runner/matrix/parse.js";
import { fixtures, wirecost } from "./support.js";

const file = join(fixtures, "good/pass-through.yaml");

test("expand --format json lists the new axis' values under stable ids", async () => {
  const r = await wirecost(["expand", "--format", "json", "test/fixtures/matrices/good/pass-through.yaml"]);
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout) as { configurations: { id: string; values: Record<string, string> }[]; runs: number };
  assert.deepEqual(
    j.configurations.map((c) => [c.id, c.values.payload]),
    [
      ["env-echo-stdio", "1k"],
      ["env-echo-stdio-p64k", "64k"],
    ],
  );
  assert.equal(j.runs, 2);
});

test("the target receives each configuration's value in argv and env", async () => {
  const m = loadMatrix(file);
  for (const c of expand(m).configurations) {
    const p = startTarget(m.targets[c.values.target!]!.commands.stdio!, c.values, dirname(m.file));
    let out = "";
    p.child.stdout!.on("data", (d: Buffer) => (out += d.toString("utf8")));
    await p.child;
    await p.stop();
    const got = JSON.parse(out) as { argv: string[]; env: Record<string, string> };
    const v = c.values.payload!;
    assert.deepEqual(got.argv, ["--payload", v, "--via=stdio"]);
    assert.equal(got.env.WIRECOST_PAYLOAD, v);
    assert.equal(got.env.PAYLOAD_SIZE, v);
    assert.equal(got.env.WIRECOST_TARGET, "env-echo");
  }
});

test("wirecost run drives the real mcp-ts-v2 server in a matrix with an extra axis", async () => {
  const out = mkdtempSync(join(tmpdir(), "wirecost-pass-"));
  try {
    const r = await wirecost(["run", "test/fixtures/matrices/pass-through-mcp.yaml", "--results", out, "--jobs", "1"]);
    assert.equal(r.code, 0, r.stderr);
    const runs = readFileSync(join(out, "runs.tsv"), "utf8").split("\n");
    const row = runs.find((l) => l.startsWith("raw-mcp-ts-v2-stdio-2025-11-25-plain-nhello\t"));
    assert.ok(row, runs.join("\n"));
    assert.match(row, /\tok\t/);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test("{{ and }} are literal braces in argv and env; only {name} is a placeholder", async () => {
  const { placeholderNames, substitute } = await import("../../runner/matrix/placeholders.js");
  assert.deepEqual(placeholderNames('{{"size": {payload}}}'), ["payload"]);
  assert.equal(substitute('{{"size": {payload}}}', { payload: "1k" }), '{"size": 1k}');
  assert.equal(substitute("{{payload}}", { payload: "1k" }), "{payload}");
  assert.equal(substitute("{{{payload}}}", { payload: "1k" }), "{1k}");
  assert.equal(substitute("--port={port} {unknown}", { port: "9" }), "--port=9 {unknown}");
  // an escaped brace is not a placeholder, so the parser does not refuse it
  const { parseMatrix } = await import("../../runner/matrix/parse.js");
  const text = readFileSync(file, "utf8").replace('"--via={transport}"', `'{{"via": "{transport}"}}'`);
  assert.notEqual(text, readFileSync(file, "utf8"));
  const m = parseMatrix(text, file);
  assert.deepEqual(m.targets["env-echo"]!.commands.stdio!.argv.slice(-1), ['{{"via": "{transport}"}}']);
  assert.throws(() => parseMatrix(text.replace("{transport}", "{nope}"), file), /placeholder \{nope\} names no axis/);
});
