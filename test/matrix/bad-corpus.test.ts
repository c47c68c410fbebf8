/**
 * The bad-matrix corpus: every file under test/fixtures/matrices/bad/ ends with a comment
 * `# expect: LINE:COL what`; the real CLI must print exactly one line `wirecost: FILE:LINE:COL: what — fix`,
 * exit 1 and print nothing on stdout. A few also go through `run`, which must write no results.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fixtures, wirecost, type CliResult } from "./support.js";

const dir = join(fixtures, "bad");
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".yaml"))
  .sort();

test("the corpus holds at least 25 bad matrices", () => {
  assert.ok(files.length >= 25, `only ${files.length} files`);
});

/** `{line, col, what}` from the file's `# expect:` comment. */
function expectation(file: string): { pos: string; what: string } {
  const m = /# expect: (\d+:\d+) (.+)\n?$/.exec(readFileSync(join(dir, file), "utf8"));
  assert.ok(m, `${file} has no # expect: line`);
  return { pos: m[1]!, what: m[2]! };
}

/** CLI runs of every file, four at a time, started when the first test asks. */
let pool: Map<string, Promise<CliResult>> | undefined;
function cliResult(file: string): Promise<CliResult> {
  if (!pool) {
    pool = new Map();
    const chain: Promise<unknown>[] = [Promise.resolve(), Promise.resolve(), Promise.resolve(), Promise.resolve()];
    files.forEach((f, i) => {
      const p = chain[i % 4]!.then(() => wirecost(["expand", `test/fixtures/matrices/bad/${f}`]));
      chain[i % 4] = p;
      pool!.set(f, p);
    });
  }
  return pool.get(file)!;
}

for (const file of files) {
  test(`expand refuses ${file} with one line naming file:line:col and the fix`, async () => {
    const { pos, what } = expectation(file);
    const rel = `test/fixtures/matrices/bad/${file}`;
    const r = await cliResult(file);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stdout, "");
    const lines = r.stderr.split("\n").filter(Boolean);
    assert.equal(lines.length, 1, r.stderr);
    const line = lines[0]!;
    assert.ok(line.startsWith(`wirecost: ${rel}:${pos}: `), line);
    assert.ok(line.includes(what), `${line}\n  lacks: ${what}`);
    assert.match(line, / — \S.{8,}$/, "names a fix after the dash");
  });
}

for (const file of [
  "unknown-top-key.yaml",
  "repeats-negative.yaml",
  "axis-product-huge.yaml",
  "duplicate-ids.yaml",
  "semver-unmet.yaml",
  "program-not-found.yaml",
]) {
  test(`run refuses ${file} and writes no results`, async () => {
    const out = mkdtempSync(join(tmpdir(), "wirecost-bad-"));
    try {
      const results = join(out, "results");
      const r = await wirecost(["run", `test/fixtures/matrices/bad/${file}`, "--results", results]);
      assert.equal(r.code, 1, r.stderr);
      assert.equal(r.stderr.split("\n").filter(Boolean).length, 1, r.stderr);
      assert.match(r.stderr, /^wirecost: \S*bad\/\S+\.yaml(:\d+:\d+)?: .+ — .+/);
      assert.deepEqual(readdirSync(out), [], "no results folder");
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
}

test("run refuses a program that is not there with the same file:line:col line as expand", async () => {
  const out = mkdtempSync(join(tmpdir(), "wirecost-bad-"));
  try {
    const file = "test/fixtures/matrices/bad/program-not-found.yaml";
    const [e, r] = await Promise.all([wirecost(["expand", file]), wirecost(["run", file, "--results", join(out, "results")])]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /^wirecost: \S*program-not-found\.yaml:10:14: program "\/nonexistent\/server" /);
    assert.equal(r.stderr, e.stderr);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
