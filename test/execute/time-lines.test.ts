/**
 * The bytes run's last lines: time and CPU counted from the start of the builds, the builds' CPU
 * named apart and inside the floor, the floor over the cores and the ratio, and the wall time
 * split into builds (before the runs, or beside them), target start-up and the rest.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { timeLines } from "../../runner/modes/bytes.js";

test("timeLines: builds before the runs, their CPU in the floor, start-up per job slot", () => {
  const [cpu, time] = timeLines(
    {
      buildSeconds: 61.24,
      builds: 2,
      buildCpuSeconds: 80,
      firstRunSeconds: 61.3,
      runSeconds: 461.3,
      jobs: 2,
      readyRuns: 1910,
      startupSeconds: 212,
      cpuAtStart: { own: 2, children: 100 },
    },
    { own: 44, children: 780 },
    2,
  );
  // children 680 = builds 80 + targets 600; (42 + 600 + 80) / 2 = 361 s floor; 461.3 / 361 = 1.277…
  assert.equal(cpu, " in 461.3 s (CPU: wirecost 42.0 s, the targets it started 600.0 s, the target builds 80.0 s; floor 361.0 s on 2 cores, 1.28×)");
  assert.equal(
    time,
    "  time: target builds 61.2 s before the runs; target start-up 212.0 s summed over 1910 runs (spawn to ready), 106.0 s of the runs' 400.0 s at 2 jobs; the rest 294.0 s",
  );
});

test("timeLines: runs beside the builds, from the first run's start", () => {
  const [, time] = timeLines(
    { buildSeconds: 230, builds: 3, buildCpuSeconds: 300, firstRunSeconds: 0.5, runSeconds: 500.5, jobs: 4, readyRuns: 100, startupSeconds: 40 },
    undefined,
    2,
  );
  assert.equal(
    time,
    "  time: target builds 230.0 s, the runs beside them from 0.5 s on; target start-up 40.0 s summed over 100 runs (spawn to ready), 10.0 s of the runs' 500.0 s at 4 jobs; the rest 490.0 s",
  );
});

test("timeLines: no /proc, no builds, no target ready: only what is known", () => {
  const [cpu, time] = timeLines(
    { buildSeconds: 0.02, builds: 0, buildCpuSeconds: 0, firstRunSeconds: 0.02, runSeconds: 1.5, jobs: 1, readyRuns: 0, startupSeconds: 0 },
    undefined,
    1,
  );
  assert.equal(cpu, " in 1.5 s");
  assert.equal(time, "");
});

test("timeLines: no floor and no ratio for a run that ran next to nothing", () => {
  const [cpu] = timeLines(
    { buildSeconds: 0, builds: 0, buildCpuSeconds: 0, runSeconds: 0.4, jobs: 4, readyRuns: 0, startupSeconds: 0, cpuAtStart: { own: 1, children: 0 } },
    { own: 1.02, children: 0 },
    2,
  );
  assert.equal(cpu, " in 0.4 s (CPU: wirecost 0.0 s, the targets it started 0.0 s)");
});

test("timeLines: one run at one job is counted in the singular (1 run, 1 job, 1 core)", () => {
  const [cpu, time] = timeLines(
    {
      buildSeconds: 0,
      builds: 0,
      buildCpuSeconds: 0,
      firstRunSeconds: 0,
      runSeconds: 2,
      jobs: 1,
      readyRuns: 1,
      startupSeconds: 0.5,
      cpuAtStart: { own: 0, children: 0 },
    },
    { own: 0.5, children: 1 },
    1,
  );
  assert.match(cpu, / on 1 core, /);
  assert.equal(time, "  time: target start-up 0.5 s summed over 1 run (spawn to ready), 0.5 s of the runs' 2.0 s at 1 job; the rest 1.5 s");
});
