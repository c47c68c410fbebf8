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
