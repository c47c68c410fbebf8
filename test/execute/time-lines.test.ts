/**
 * The bytes run's last lines: CPU counted from the end of the builds, the floor over the cores
 * and the ratio, and the wall time split into builds, target start-up and the rest.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { timeLines } from "../../runner/modes/bytes.js";

test("timeLines: CPU from the end of the builds, floor over the cores, start-up per job slot", () => {
  const [cpu, time] = timeLines(
    { buildSeconds: 61.24, builds: 2, runSeconds: 400, jobs: 2, readyRuns: 1910, startupSeconds: 212, cpuAtRunsStart: { own: 2, children: 100 } },
    { own: 44, children: 700 },
    2,
  );
  // (42 + 600) / 2 = 321 s floor; 400 / 321 = 1.246…
  assert.equal(cpu, " in 400.0 s (CPU: wirecost 42.0 s, the targets it started 600.0 s; floor 321.0 s on 2 cores, 1.25×)");
  assert.equal(
    time,
    "  time: target builds 61.2 s before the runs; target start-up 212.0 s summed over 1910 runs (spawn to ready), 106.0 s of the runs' 400.0 s at 2 jobs; the rest 294.0 s",
  );
});

test("timeLines: no /proc, no builds, no target ready: only what is known", () => {
  const [cpu, time] = timeLines({ buildSeconds: 0.02, builds: 0, runSeconds: 1.5, jobs: 1, readyRuns: 0, startupSeconds: 0 }, undefined, 1);
  assert.equal(cpu, " in 1.5 s");
  assert.equal(time, "");
});

test("timeLines: no floor and no ratio for a run that ran next to nothing", () => {
  const [cpu] = timeLines(
    { buildSeconds: 0, builds: 0, runSeconds: 0.4, jobs: 4, readyRuns: 0, startupSeconds: 0, cpuAtRunsStart: { own: 1, children: 0 } },
    { own: 1.02, children: 0 },
    2,
  );
  assert.equal(cpu, " in 0.4 s (CPU: wirecost 0.0 s, the targets it started 0.0 s)");
});
