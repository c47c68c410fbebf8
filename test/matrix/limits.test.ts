/**
 * Parsing limits through the real CLI (issue "Nothing lost, nobody out", breaks 7 and 8): a YAML
 * alias bomb in a predictions file and counts past their bound on the command line are one line
 * each, exit 1; the matrix cases are in the bad corpus (test/fixtures/matrices/bad/: alias-bomb,
 * repeats-infinite, timeout-infinite, timeout-timer-overflow, args-too-large). The bound of
 * `--repeats` is the schema's.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { test } from "node:test";
import { MAX_REPEATS } from "../../runner/matrix/types.js";
import { root } from "../paths.js";
import { fixtures, wirecost } from "./support.js";

const work = mkdtempSync(join(tmpdir(), "wirecost-limits-"));

test("render: a YAML alias bomb in the predictions file is one line at file:line:col, exit 1, no site", async () => {
  const bomb = join(work, "predictions.yaml");
  const lines = ["version: 1", "a: &a [x, x, x, x, x, x, x, x, x]"];
  for (const [i, c] of [..."bcdefgh"].entries()) lines.push(`${c}: &${c} [${Array(9).fill(`*${"abcdefgh"[i]}`).join(", ")}]`);
  lines.push(`i: [${Array(9).fill("*h").join(", ")}]`, "predictions: []");
  writeFileSync(bomb, `${lines.join("\n")}\n`);
  const site = join(work, "site");
  const r = await wirecost(["render", "--results", resolve(root, "test/fixtures/results-basic"), "--site", site, "--predictions", bomb]);
  assert.equal(r.code, 1, r.stderr);
  const out = r.stderr.split("\n").filter(Boolean);
  assert.equal(out.length, 1, r.stderr);
  assert.match(out[0]!, new RegExp(`^wirecost: ${bomb}:4:8: YAML aliases expand past the alias limit \\(100: .* — write the values out`));
});

test("run and verify --repeats: above the bound (the schema's count maximum) refused in one line", async () => {
  const schema = JSON.parse(readFileSync(join(root, "matrix.schema.json"), "utf8")) as { definitions: { count: { maximum: number } } };
  assert.equal(schema.definitions.count.maximum, MAX_REPEATS, "matrix.schema.json and MAX_REPEATS agree");
  for (const cmd of ["run", "verify"]) {
    const r = await wirecost([cmd, join(fixtures, "jsonrpc-echo.yaml"), "--repeats", String(MAX_REPEATS + 1), "--results", join(work, "r")]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, new RegExp(`--repeats takes a whole number from 0 to ${MAX_REPEATS}, got "${MAX_REPEATS + 1}"`));
    assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
  }
});

test("render: a circular YAML alias or nesting past 64 levels in the predictions file is one line at file:line:col, exit 1", async () => {
  for (const [name, text, pos, want] of [
    ["circular", "version: 1\na: &a [*a]\npredictions: []\n", "2:8", "YAML alias inside the node it names"],
    ["deep", `version: 1\na: ${"[".repeat(100)}${"]".repeat(100)}\npredictions: []\n`, "2:67", "YAML nested more than 64 levels deep"],
    ["deeper", `version: 1\na: ${"[".repeat(100_000)}${"]".repeat(100_000)}\npredictions: []\n`, undefined, "YAML nested more than 64 levels deep"],
  ] as const) {
    const file = join(work, `predictions-${name}.yaml`);
    writeFileSync(file, text);
    const r = await wirecost([
      "render",
      "--results",
      resolve(root, "test/fixtures/results-basic"),
      "--site",
      join(work, `site-${name}`),
      "--predictions",
      file,
    ]);
    assert.equal(r.code, 1, r.stderr);
    const out = r.stderr.split("\n").filter(Boolean);
    assert.equal(out.length, 1, r.stderr);
    // Nested past what the parser's own stack holds, no position may be known: the file is named.
    const where = pos === undefined ? `${file}(:\\d+:\\d+)?` : `${file}:${pos}`;
    assert.match(out[0]!, new RegExp(`^wirecost: ${where}: ${want}[^—]* — `));
  }
});

test("expand: a matrix nested 100,000 levels deep is one line, not a stack overflow", async () => {
  const file = join(work, "deep-matrix.yaml");
  writeFileSync(file, `version: 1\naxes: ${"[".repeat(100_000)}${"]".repeat(100_000)}\n`);
  const r = await wirecost(["expand", file]);
  assert.equal(r.code, 1, r.stderr);
  const out = r.stderr.split("\n").filter(Boolean);
  assert.equal(out.length, 1, r.stderr);
  assert.match(out[0]!, /^wirecost: \S+deep-matrix\.yaml(:\d+:\d+)?: YAML nested more than 64 levels deep — /);
});
