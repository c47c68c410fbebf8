/**
 * Runner seams without real targets (a fake run in place of runOne): shard partition, the
 * journal's schemaVersion check, resume and merge refusals.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { COUNT_COLUMNS, type CountRow } from "../../runner/count/index.js";
import { UserError } from "../../format/errors.js";
import { runMatrix, type RunOneFn } from "../../runner/execute/run-matrix.js";
import { parseShard, shardOf } from "../../runner/execute/shard.js";
import { readPlan } from "../../runner/results/journal.js";
import { mergeResults } from "../../runner/results/merge.js";
import { parseMatrix } from "../../runner/matrix/parse.js";
import { Writable } from "node:stream";

const quiet = Object.assign(new Writable({ write: (_c, _e, cb) => cb() }), { isTTY: false }) as unknown as NodeJS.WriteStream;
const matrix = (extra = "") =>
  parseMatrix(
    `version: 1\nrepeats: 2\naxes:\n  - name: target\n    values: [t]\n  - name: transport\n    values: [stdio]\n  - name: n\n    values: [0, 1, 2, 3, 4, 5, 6]\n    id: "n{}"\ntargets:\n  t:\n    stdio:\n      argv: [node, -e, ""]\n${extra}`,
    join(tmpdir(), "fake.yaml"),
  );
const fake: RunOneFn = async (_m, c, repeat) => ({
  config: c.id,
  repeat,
  status: "ok",
  exit: "0",
  error: "",
  // Every count n, save the total: every byte both ways (the journal checks it adds up).
  counts: Object.fromEntries(COUNT_COLUMNS.map((k) => [k, Number(c.values.n ?? 0) * (k === "total_bytes" ? 2 : 1)])) as unknown as CountRow,
  digest: "x",
});
const tmp = () => mkdtempSync(join(tmpdir(), "wirecost-journal-"));

/** Run matrix() into `dir` one run at a time with the fake run, aborting (as ^C) during run number `n`. */
async function interruptedRun(dir: string, n: number) {
  const ac = new AbortController();
  let calls = 0;
  const stopping: RunOneFn = async (m, c, r, log, signal) => {
    if (++calls === n) ac.abort();
    return fake(m, c, r, log, signal);
  };
  return runMatrix(matrix(), { results: dir, runOne: stopping, jobs: 1, signal: ac.signal, preflight: false, progressStream: quiet });
}

test("shards K/N partition the configurations: each in exactly one shard, sizes within one", () => {
  const configs = Array.from({ length: 11 }, (_, i) => ({ id: `c${String(i).padStart(2, "0")}`, values: {}, repeats: 1 }));
  const parts = [1, 2, 3].map((k) => shardOf(configs.slice().reverse(), { k, n: 3 }).map((c) => c.id));
  assert.deepEqual(
    parts.flat().sort(),
    configs.map((c) => c.id),
  );
  assert.deepEqual(
    parts.map((p) => p.length),
    [4, 4, 3],
  );
  assert.deepEqual(parts[0], ["c09", "c06", "c03", "c00"]);
  assert.throws(
    () => parseShard("4/3"),
    (e: Error) => e instanceof UserError && /--shard 4\/3: expected K\/N with 1 ≤ K ≤ N/.test(e.message),
  );
});

test("a results folder of another schemaVersion is refused with the command that migrates it", async () => {
  const dir = tmp();
  await runMatrix(matrix(), { results: dir, runOne: fake, preflight: false, progressStream: quiet });
  const plan = join(dir, "runs", "plan.json");
  writeFileSync(plan, readFileSync(plan, "utf8").replace('"schemaVersion": 1', '"schemaVersion": 0'));
  assert.throws(
    () => readPlan(dir),
    (e: Error) =>
      e instanceof UserError &&
      e.message ===
        `${plan}: results schemaVersion 0, this wirecost reads 1 — migrate it by re-running the matrix into a new folder: npx wirecost run ${join(tmpdir(), "fake.yaml")} --results NEW_FOLDER`,
  );
  writeFileSync(plan, readFileSync(plan, "utf8").replace('"schemaVersion": 0', '"schemaVersion": 2'));
  assert.throws(() => readPlan(dir), /schemaVersion 2, this wirecost reads 1 — upgrade wirecost/);
});

test("resume refuses a folder whose provenance.json is of another schemaVersion", async () => {
  const dir = tmp();
  await runMatrix(matrix(), { results: dir, runOne: fake, preflight: false, progressStream: quiet });
  const prov = join(dir, "provenance.json");
  writeFileSync(prov, readFileSync(prov, "utf8").replace(/"schemaVersion": 1/, '"schemaVersion": 0'));
  await assert.rejects(
    runMatrix(matrix(), { results: dir, resume: true, runOne: fake, preflight: false, progressStream: quiet }),
    (e: Error) => e instanceof UserError && e.message.startsWith(`${prov}: results schemaVersion 0, this wirecost reads 1`),
  );
});

test("abort keeps finished runs; resume runs only the rest; another matrix cannot resume the folder", async () => {
  const dir = tmp();
  const first = await interruptedRun(dir, 5);
  assert.equal(first.interrupted, true);
  assert.equal(first.runs.length, 5);
  let again = 0;
  const second = await runMatrix(matrix(), {
    results: dir,
    resume: true,
    runOne: async (...a) => {
      again++;
      return fake(...a);
    },
    preflight: false,
    progressStream: quiet,
  });
  assert.equal(again, 14 - 5);
  assert.equal(second.resumed, 5);
  assert.equal(second.runs.length, 14);
  await assert.rejects(
    runMatrix(matrix("title: changed\n"), { results: dir, resume: true, runOne: fake, preflight: false, progressStream: quiet }),
    /written for another matrix definition .* \(--results NEW_FOLDER\), or pass --fresh instead of --resume/,
  );
});

test("resume accepts the matrix edited in form only (comments, blank lines, quoting)", async () => {
  const dir = tmp();
  await interruptedRun(dir, 3);
  const edited = matrix("# a comment added after the first run\n\n").file;
  const reworded = parseMatrix(
    `# fixed the target, reran the failures\nversion: 1\nrepeats: 2\naxes:\n  - name: target\n    values: ["t"]\n  - name: transport\n    values: [stdio]\n  - name: n\n    values: [0, 1, 2, 3, 4, 5, 6]\n    id: 'n{}'\ntargets:\n  t:\n    stdio:\n      argv: [node, -e, ""]\n`,
    edited,
  );
  const second = await runMatrix(reworded, { results: dir, resume: true, runOne: fake, preflight: false, progressStream: quiet });
  assert.equal(second.resumed, 3);
  assert.equal(second.runs.length, 14);
});

test("a run or a merge that would drop another matrix's results is refused unless --fresh", async () => {
  const [dir, a] = [tmp(), tmp()];
  await runMatrix(matrix(), { results: dir, runOne: fake, preflight: false, progressStream: quiet });
  const other = parseMatrix(
    `version: 1\naxes:\n  - name: target\n    values: [t]\n  - name: transport\n    values: [stdio]\ntargets:\n  t:\n    stdio:\n      argv: [node, -e, ""]\n`,
    join(tmpdir(), "other.yaml"),
  );
  await assert.rejects(
    runMatrix(other, { results: dir, runOne: fake, preflight: false, progressStream: quiet }),
    /holds results of 7 configuration\(s\) this run does not select \(e\.g\. t-stdio-n0, from .*fake\.yaml\) .* or --fresh to drop them/,
  );
  assert.equal(readFileSync(join(dir, "runs.tsv"), "utf8").trim().split("\n").length, 1 + 14, "the first matrix's runs are kept");
  const again = await runMatrix(matrix(), { results: dir, runOne: fake, preflight: false, progressStream: quiet });
  assert.equal(again.runs.length, 14, "the same matrix again replaces its own runs without --fresh");
  await runMatrix(other, { results: a, runOne: fake, preflight: false, progressStream: quiet, shard: "1/1" });
  assert.throws(() => mergeResults([a], dir), /--results .*: holds results of 7 configuration\(s\) no folder given ran .* pass --fresh/);
  assert.equal(readFileSync(join(dir, "runs.tsv"), "utf8").trim().split("\n").length, 1 + 14, "the folder is left as it was");
  mergeResults([a], dir, "wirecost merge", true);
  assert.equal(readFileSync(join(dir, "runs.tsv"), "utf8").trim().split("\n").length, 1 + 1);
  const fresh = await runMatrix(other, { results: dir, fresh: true, runOne: fake, preflight: false, progressStream: quiet });
  assert.equal(fresh.runs.length, 1);
});

test("merge reads every input run file first: a bad one is named in its own folder and nothing is written", async () => {
  const [a, c] = [tmp(), tmp()];
  await runMatrix(matrix(), { results: a, shard: "1/1", runOne: fake, preflight: false, progressStream: quiet });
  const bad = join(a, "runs", "t-stdio-n2", "1.json");
  writeFileSync(bad, "not json{");
  const out = join(c, "out");
  assert.throws(
    () => mergeResults([a], out),
    (e: Error) => e.message.startsWith(`${bad}: not valid JSON`),
  );
  assert.equal(existsSync(out), false);
});

test("merge refuses shards of different matrices and reports missing configurations", async () => {
  const [a, b, c] = [tmp(), tmp(), tmp()];
  await runMatrix(matrix(), { results: a, shard: "1/2", runOne: fake, preflight: false, progressStream: quiet });
  await runMatrix(matrix("title: other\n"), { results: b, shard: "2/2", runOne: fake, preflight: false, progressStream: quiet });
  assert.throws(() => mergeResults([a, b], join(c, "out")), /ran another matrix than .* merge only shards of one matrix file/);
  const r = mergeResults([a], join(c, "out"));
  assert.deepEqual(r.missing, ["t-stdio-n1", "t-stdio-n3", "t-stdio-n5"]);
  assert.match(readFileSync(join(c, "out", "coverage.tsv"), "utf8"), /^t-stdio-n1\tt\tstdio\t1\tnot-run\t$/m);
});
