/**
 * Guards on `wirecost run` that keep a user from losing results or running nothing by mistake:
 * a partial run (--only) into a folder holding other configurations' results is refused unless
 * --resume; --repeats 0, --jobs 0 and --jobs above the machine's bound are refused with one line.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
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
  assert.match(
    refused.stderr,
    new RegExp(
      `^wirecost: ${results}: holds results of 1 configuration\\(s\\) this run does not select \\(e\\.g\\. ${A}, from matrix\\.yaml\\) and would drop them — pass --resume .*--results NEW_FOLDER, or --fresh to drop them$`,
    ),
  );
  assert.match(readFileSync(join(results, "runs.tsv"), "utf8"), new RegExp(`^${A}\\t1\\tok`, "m"), "the first run's results are kept");
  const both = await wc(["run", "--only", B, "--repeats", "1", "--results", results, "--resume", "--fresh"]);
  assert.equal(both.exitCode, 1);
  assert.equal(
    both.stderr,
    `wirecost: --resume and --fresh contradict each other: --resume keeps the runs already in ${results}, --fresh drops them — pass one of them`,
  );
  const added = await wc(["run", "--only", B, "--repeats", "1", "--results", results, "--resume"]);
  assert.equal(added.exitCode, 0, added.stderr);
  const runs = readFileSync(join(results, "runs.tsv"), "utf8");
  for (const id of [A, B]) assert.match(runs, new RegExp(`^${id}\\t1\\tok`, "m"), `${id} in runs.tsv`);
});

test("--repeats 0, --jobs 0 and --jobs above 4 per core (at most 64) are refused with one line", async () => {
  const zero = await wc(["run", "--repeats", "0", "--results", join(mkdtempSync(join(tmpdir(), "wirecost-guard-")), "r")]);
  assert.equal(zero.exitCode, 1);
  assert.equal(zero.stderr, "wirecost: --repeats 0: leaves nothing to run (0 runs) — pass --repeats 1 or more");
  const jobs = await wc(["run", "--jobs", "0"]);
  assert.equal(jobs.exitCode, 1);
  assert.equal(jobs.stderr.trim().split("\n").length, 1, jobs.stderr);
  const max = Math.min(64, 4 * availableParallelism());
  assert.match(
    jobs.stderr,
    new RegExp(`--jobs takes a whole number from 1 to ${max} on this machine \\(4 per core, at most 64; default: two per core\\), got "0"`),
  );
  for (const cmd of ["run", "verify"]) {
    const many = await wc([cmd, "--jobs", "100000"]);
    assert.equal(many.exitCode, 1);
    assert.equal(many.stderr.trim().split("\n").length, 1, many.stderr);
    assert.match(many.stderr, new RegExp(`--jobs takes a whole number from 1 to ${max} .*got "100000"`));
    assert.doesNotMatch(many.stderr, /MaxListeners/);
  }
  const top = await wc(["run", "--jobs", String(max), "--repeats", "0", "--results", join(mkdtempSync(join(tmpdir(), "wirecost-guard-")), "r")]);
  assert.doesNotMatch(top.stderr, /--jobs/, `--jobs ${max} is taken`);
});

test("--shard past 2^53−1 and measure --url with port 0 are refused up front with one line", async () => {
  const out = join(mkdtempSync(join(tmpdir(), "wirecost-guard-")), "r");
  const r = await wc(["run", "test/fixtures/matrices/jsonrpc-echo.yaml", "--shard", "1/99999999999999999999", "--results", out]);
  assert.equal(r.exitCode, 1, r.stderr);
  assert.equal(
    r.stderr,
    "wirecost: --shard 1/99999999999999999999: N is past 2^53−1 (9007199254740991), which a number cannot hold exactly — give a smaller N, e.g. --shard 2/3",
  );
  const url = await wc(["measure", "--url", "http://127.0.0.1:0/mcp", "--results", out]);
  assert.equal(url.exitCode, 1, url.stderr);
  assert.equal(url.stderr.trim().split("\n").length, 1, url.stderr);
  assert.match(url.stderr, /^wirecost: --url http:\/\/127\.0\.0\.1:0\/mcp: port 0 is not a port a server listens on \(1–65535\)/);
  assert.ok(!existsSync(out), "nothing written");
});

test("verify on every committed report prints a command that names that report's matrix", async () => {
  // The timing and per-call folders are compared by eye: verify names the matrix they were run from.
  for (const [results, matrix] of [
    ["results/a2a-layer-cost", "matrices/a2a-layer-cost.yaml"],
    ["results/mcp-per-call-overhead", "matrices/mcp-per-call-overhead.yaml"],
  ] as const) {
    const r = await wc(["verify", "--results", results]);
    assert.equal(r.exitCode, 1);
    assert.match(r.stderr, new RegExp(`which verify does not compare .* npx wirecost run ${matrix} --results /tmp/wirecost-remeasure$`), r.stderr);
  }
  // A bytes folder run from another matrix: verify names that matrix instead of re-running the wrong one.
  const wrong = await wc(["verify", "matrices/a2a-layer-cost.yaml", "--results", "results"]);
  assert.equal(wrong.exitCode, 1);
  assert.match(
    wrong.stderr,
    /^wirecost: results: was run from matrix\.yaml, not matrices\/a2a-layer-cost\.yaml — verify it with its own matrix: npx wirecost verify matrix\.yaml --results results$/,
  );
});
