/**
 * Guards on `wirecost run` that keep a user from losing results or running nothing by mistake:
 * a partial run (--only) into a folder holding other configurations' results is refused unless
 * --resume; --repeats 0 and --jobs 0 are refused with one line.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { cli, root } from "../paths.js";

const wc = (args: string[]) => execa(process.execPath, [cli, ...args], { cwd: root, reject: false });
const A = "raw-mcp-ts-v2-stdio-2026-07-28-plain";
const B = "raw-mcp-ts-v2-stdio-2025-11-25-plain";

test("run --only into a folder with other configurations' results is refused; --resume adds to it", { timeout: 120_000 }, async () => {
  const results = join(mkdtempSync(join(tmpdir(), "wirecost-guard-")), "results");
  const first = await wc(["run", "--only", A, "--repeats", "1", "--results", results]);
  assert.equal(first.exitCode, 0, first.stderr);
  const refused = await wc(["run", "--only", B, "--repeats", "1", "--results", results]);
  assert.equal(refused.exitCode, 1);
  assert.match(refused.stderr, new RegExp(`^wirecost: ${results}: holds results of 1 configuration\\(s\\) this run does not select \\(e\\.g\\. ${A}, from matrix\\.yaml\\) and would drop them — pass --resume .*--results NEW_FOLDER, or --fresh to drop them$`));
  assert.match(readFileSync(join(results, "runs.tsv"), "utf8"), new RegExp(`^${A}\\t1\\tok`, "m"), "the first run's results are kept");
  const added = await wc(["run", "--only", B, "--repeats", "1", "--results", results, "--resume"]);
  assert.equal(added.exitCode, 0, added.stderr);
  const runs = readFileSync(join(results, "runs.tsv"), "utf8");
  for (const id of [A, B]) assert.match(runs, new RegExp(`^${id}\\t1\\tok`, "m"), `${id} in runs.tsv`);
});

test("--repeats 0 and --jobs 0 are refused with one line", async () => {
  const zero = await wc(["run", "--repeats", "0", "--results", join(mkdtempSync(join(tmpdir(), "wirecost-guard-")), "r")]);
  assert.equal(zero.exitCode, 1);
  assert.equal(zero.stderr, "wirecost: --repeats 0: leaves nothing to run (0 runs) — pass --repeats 1 or more");
  const jobs = await wc(["run", "--jobs", "0"]);
  assert.equal(jobs.exitCode, 1);
  assert.equal(jobs.stderr.trim().split("\n").length, 1, jobs.stderr);
  assert.match(jobs.stderr, /--jobs takes a whole number ≥ 1, got "0"/);
});
