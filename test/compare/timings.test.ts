/**
 * `wirecost compare` on timing folders: real timing runs of the floor target (targets/floor)
 * spending a known CPU time per request (--burn-us), 5 trials each
 * (test/fixtures/matrices/compare/floor-*.yaml). A server spending twice the CPU per request is a
 * significant change (the exact rank test's smallest p for 5 and 5 trials is 2/252 = 0.0079) and
 * trips `--fail-on cpu_per_request_us>+10%` (exit 2); two configurations of the same server whose
 * trials were interleaved in one run (copied into two folders under one id, the documented edit)
 * print `~` and trip nothing (exit 0). For exchangeable trials the exact test calls a no-change
 * significant with probability 8/252 = 3.2%: the assertion on the same server is made on
 * `cpu_per_request_us`, measured from the process's CPU clock, not wall time, and a draw that comes
 * out significant is followed by one fresh draw (a new interleaved run), so a chance result fails
 * the test with probability about 0.1 % while a compare that calls every difference significant
 * still fails it.
 */
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cli, root } from "../paths.js";
import type { Comparison } from "../../runner/compare/compare.js";

const work = mkdtempSync(join(tmpdir(), "wirecost-compare-t-"));
const folder = (name: string) => join(work, name);

function wirecost(...args: string[]) {
  return spawnSync(process.execPath, [cli, ...args], { cwd: root, encoding: "utf8" });
}

/** A timing folder holding configuration `config` of `src` renamed `as`. */
function oneTimingConfig(src: string, config: string, dest: string, as: string): void {
  mkdirSync(dest, { recursive: true });
  for (const f of ["timings.tsv", "timings-summary.tsv"]) {
    const [head, ...rows] = readFileSync(join(src, f), "utf8").trimEnd().split("\n");
    const mine = rows.filter((r) => r.split("\t")[0] === config).map((r) => [as, ...r.split("\t").slice(1)].join("\t"));
    writeFileSync(join(dest, f), [head, ...mine, ""].join("\n"));
  }
  cpSync(join(src, "timings-run.json"), join(dest, "timings-run.json"));
}

before(() => {
  for (const m of ["floor-base", "floor-slow"]) {
    const r = wirecost("run", `test/fixtures/matrices/compare/${m}.yaml`, "--results", folder(m));
    assert.equal(r.status, 0, r.stderr);
  }
});

/** Run the same server twice, interleaved (floor-twice.yaml), into `same-<draw>-a` and `-b` as one id. */
function sameServerDraw(draw: number): [string, string] {
  const twice = folder(`floor-twice-${draw}`);
  const r = wirecost("run", "test/fixtures/matrices/compare/floor-twice.yaml", "--results", twice);
  assert.equal(r.status, 0, r.stderr);
  oneTimingConfig(twice, "floor-a", folder(`same-${draw}-a`), "floor");
  oneTimingConfig(twice, "floor-b", folder(`same-${draw}-b`), "floor");
  return [folder(`same-${draw}-a`), folder(`same-${draw}-b`)];
}

test("a server 2× slower on CPU over 5 trials: significant, n and p printed; --fail-on cpu_per_request_us>+10% exits 2", () => {
  const r = wirecost("compare", folder("floor-base"), folder("floor-slow"), "--format", "json", "--fail-on", "cpu_per_request_us>+10%");
  assert.equal(r.status, 2, r.stderr);
  const c = JSON.parse(r.stdout) as Comparison & { trips: { metric: string }[] };
  const cpu = c.metrics.find((m) => m.config === "floor" && m.metric === "cpu_per_request_us")!;
  assert.equal(cpu.nBase, 5);
  assert.equal(cpu.nHead, 5);
  assert.ok(cpu.significant && cpu.p < 0.05, `p = ${cpu.p}`);
  // 300 µs more burnt per request on top of the base's (300 µs and the server's own work).
  assert.ok(cpu.medianHead - cpu.medianBase > 200, `${cpu.medianBase} → ${cpu.medianHead}`);
  assert.deepEqual(
    c.trips.map((t) => t.metric),
    ["cpu_per_request_us"],
  );
  const text = wirecost("compare", folder("floor-base"), folder("floor-slow"));
  assert.match(text.stdout, /\nfloor\tcpu_per_request_us\t[0-9.]+\t[0-9.]+\t[0-9.]+\t5\/5\t0\.00794\t\+[0-9.]+%\n/);
});

test("two runs of the same server: printed ~, no rule trips, exit 0", () => {
  const rules = ["--fail-on", "cpu_per_request_us>+10%", "--fail-on", "cpu_per_request_us<-10%"];
  const same = /\nfloor\tcpu_per_request_us\t[0-9.]+\t[0-9.]+\t[0-9.]+\t5\/5\t[0-9.]+\t~\n/;
  let r = wirecost("compare", ...sameServerDraw(1), ...rules);
  // A draw that comes out significant (a rule tripped or not) is followed by one fresh draw.
  if (r.status !== 0 || !same.test(r.stdout)) r = wirecost("compare", ...sameServerDraw(2), ...rules);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, same);
});

test("a configuration whose every trial failed in the head: listed, not `only in base`, and a rule trips (exit 2)", () => {
  // The failed run's files as `run` writes them when the target never starts: one `failed` row per trial.
  const failed = folder("floor-failed");
  mkdirSync(failed, { recursive: true });
  const header = "config\ttrial\tseq\tlayout\tworkload\tstatus\tmetric\tvalue";
  const rows = [1, 2, 3, 4, 5].map((t) => `floor\t${t}\t${t}\tdefault\ta2a-send-message\tfailed\terror\t0`);
  writeFileSync(join(failed, "timings.tsv"), [header, ...rows, ""].join("\n"));
  writeFileSync(join(failed, "timings-summary.tsv"), "config\tmetric\ttrials\tmedian\tmin\tmax\n");
  cpSync(join(folder("floor-base"), "timings-run.json"), join(failed, "timings-run.json"));
  const r = wirecost("compare", folder("floor-base"), failed, "--format", "json", "--fail-on", "cpu_per_request_us>+10%");
  assert.equal(r.status, 2, r.stderr);
  const c = JSON.parse(r.stdout) as Comparison & { trips: { config: string; change: string }[] };
  assert.deepEqual([c.compared, c.onlyBase, c.failedHead], [["floor"], [], ["floor"]]);
  assert.deepEqual(
    c.trips.map((t) => [t.config, t.change]),
    [["floor", "no ok run in head"]],
  );
});

test("per-call folders compare trials and kept samples; the committed set against itself is all ~", () => {
  const r = wirecost("compare", "results/mcp-per-call-overhead", "results/mcp-per-call-overhead", "--format", "json", "--only", "mcp-py-harness-stdio-*");
  assert.equal(r.status, 0, r.stderr);
  const c = JSON.parse(r.stdout) as Comparison;
  assert.ok(c.metrics.some((m) => m.metric === "call:latency_us" && m.nBase > 100 && m.method === "normal"));
  assert.ok(c.metrics.some((m) => m.metric === "setup:ready_ms" && m.method === "exact"));
  assert.ok(c.metrics.every((m) => !m.significant && m.ratio === 1));
});
