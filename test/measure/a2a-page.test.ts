import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { render } from "../../generators/render.js";
import { coresAtRate } from "../../generators/pages/a2a-layer-cost.js";
import { UserError } from "../../format/errors.js";

/** Hand-made timing results with known figures (µs): a2a-js and floor, pinned and default. */
const FIGURES: Record<string, Record<string, number>> = {
  "a2a-js-pinned": {
    cpu_per_request_us: 2357.26,
    ticks_per_request_us: 2360,
    quantisation_error_pct: 0.34,
    calls: 5000,
    p50_us: 2304.7,
    p95_us: 2600,
    p99_us: 3100.2,
    client_cpu_per_request_us: 150,
    tput_c1_requests_per_s: 410,
    tput_c50_requests_per_s: 166.4,
    tput_c1_requests: 1210,
    tput_c1_cpu_per_request_us: 2421.5,
    tput_c1_ticks_per_request_us: 2420,
    tput_c1_quantisation_error_pct: 0.34,
    tput_c1_ticks: 293,
    tput_c50_requests: 498,
    tput_c50_cpu_per_request_us: 2500,
  },
  "floor-pinned": {
    cpu_per_request_us: 73.4,
    ticks_per_request_us: 70,
    quantisation_error_pct: 4,
    calls: 5000,
    p50_us: 43.4,
    p95_us: 60,
    p99_us: 90.1,
    client_cpu_per_request_us: 30,
    tput_c1_requests_per_s: 9000,
    tput_c50_requests_per_s: 20000,
    tput_c1_cpu_per_request_us: 70,
    tput_c50_cpu_per_request_us: 20,
  },
  "a2a-js-default": {
    cpu_per_request_us: 2421.5,
    ticks_per_request_us: 2400,
    quantisation_error_pct: 0.35,
    calls: 5000,
    p50_us: 2218.6,
    p95_us: 2500,
    p99_us: 3000,
    client_cpu_per_request_us: 140,
    tput_c1_requests_per_s: 420,
    tput_c50_requests_per_s: 170,
  },
  "floor-default": {
    cpu_per_request_us: 80,
    ticks_per_request_us: 80,
    quantisation_error_pct: 5,
    calls: 5000,
    p50_us: 50,
    p95_us: 70,
    p99_us: 100,
    client_cpu_per_request_us: 31,
    tput_c1_requests_per_s: 8000,
    tput_c50_requests_per_s: 19000,
  },
};

/**
 * Write hand-made timing results into `dir`.
 * @param clockTicksPerSecond `machine.clockTicksPerSecond` of timings-run.json; left out when undefined
 * @param extra configurations with their figures beside {@link FIGURES}
 */
function writeResults(dir: string, assumptions: unknown, schemaVersion = 1, clockTicksPerSecond?: unknown, extra: typeof FIGURES = {}): void {
  const figures = { ...FIGURES, ...extra };
  mkdirSync(dir, { recursive: true });
  const rows = ["config\tmetric\ttrials\tmedian\tmin\tmax"];
  for (const [config, metrics] of Object.entries(figures))
    for (const [m, v] of Object.entries(metrics)) rows.push(`${config}\t${m}\t3\t${v}\t${v * 0.9}\t${v * 1.1}`);
  writeFileSync(join(dir, "timings-summary.tsv"), rows.join("\n") + "\n");
  const configs = Object.keys(figures).map((id) => ({
    id,
    values: { target: id.split("-").slice(0, -1).join("-"), transport: "http", pinning: id.split("-").pop() },
  }));
  writeFileSync(
    join(dir, "timings-run.json"),
    JSON.stringify({
      schemaVersion,
      matrix: "matrices/a2a-layer-cost.yaml",
      command: "wirecost run matrices/a2a-layer-cost.yaml --results results/a2a-layer-cost",
      startedAt: "2026-01-01T00:00:00Z",
      machine: { cores: 4, allowedCores: [0, 1, 2, 3], cpuModel: "Test CPU", governor: "unreadable", clockTicksPerSecond },
      node: "v20.0.0",
      tool: { name: "wirecost", version: "0.1.0" },
      timing: { trials: 3, warmupCalls: 2000, calls: 5000, connections: [1, 50], throughputSeconds: 3, order: "interleaved", assumptions },
      layouts: { "a2a-js-pinned": "target='taskset -c 0' client='taskset -c 1,2,3'", "a2a-js-default": "no CPU pinning" },
      configurations: configs,
      targets: { "a2a-js": "A2A JS SDK", floor: "floor server" },
      percentileMethod: "hdr",
      cpuMethod: "schedstat",
      trials: [
        { config: "a2a-js-pinned", trial: 1, seq: 1, status: "ok", load1: 6.5, busy: true },
        { config: "floor-pinned", trial: 1, seq: 2, status: "ok", load1: 1.25, busy: false },
      ],
    }),
  );
}

test("the A2A page prints ratio, floor-subtracted latency and cores at a declared rate from timing results", async () => {
  const results = mkdtempSync(join(tmpdir(), "wirecost-a2a-page-"));
  writeResults(join(results, "a2a-layer-cost"), { capacityRequestsPerSecond: [10, 10000], agentTurnSeconds: [1, 30] });
  const site = `${results}-site`;
  const report = await render({ results, site });
  assert.ok(report.files.includes("a2a-layer-cost.md") && report.files.includes("a2a-layer-cost.html"), report.files.join(" "));
  const md = readFileSync(join(site, "a2a-layer-cost.md"), "utf8");
  // Headline: 2357.26 / 73.4 = 32.115… → 32.1×; 2357.26 − 73.4 = 2283.86 → 2,283.9 µs; 5000 calls × 3 trials.
  assert.match(
    md,
    /\*\*pinned\*\*: A2A JS SDK spends \*\*2,357\.3 µs\*\* of server CPU per request \(15,000 requests; tick cross-check 2,360\.0 µs, 0\.34 % quantisation error\): \*\*32\.1×\*\* the floor's 73\.4 µs, or 2,283\.9 µs more\./,
  );
  // default: 2421.5 / 80 = 30.27 → 30.3×
  assert.match(md, /\*\*default\*\*: A2A JS SDK spends \*\*2,421\.5 µs\*\*.*\*\*30\.3×\*\* the floor's 80\.0 µs, or 2,341\.5 µs more\./);
  // Floor-subtracted: p50 2304.7 − 43.4 = 2261.3; p99 3100.2 − 90.1 = 3010.1; CPU 2283.9.
  assert.match(md, /\| A2A JS SDK \| pinned \| 2,261\.3 \| 3,010\.1 \| 2,283\.9 \|/);
  assert.match(md, /\| A2A JS SDK \| default \| 2,168\.6 \| 2,900\.0 \| 2,341\.5 \|/);
  // Capacity at the declared rates, pinned CPU: 2357.26 × 10000 / 1e6 = 23.5726 → 23.573 cores; floor 0.734.
  assert.ok(Math.abs(coresAtRate(2357.26, 10000) - 23.5726) < 1e-9);
  assert.match(md, /\| 10,000 \| 23\.573 \| 0\.734 \|/);
  assert.match(md, /\| 10 \| 0\.024 \| 0\.001 \|/);
  assert.match(md, /rates are\s+assumptions declared in the matrix/);
  // Share of a 1–30 s turn: 2357.26 µs / 30 s = 0.0079 %, / 1 s = 0.2357 %.
  assert.match(md, /0\.0079 %–0\.2357 % of an agent turn of 1–30 s \(assumed turn length\)/);
  // Latency table row and the busy warning from trial load.
  assert.match(md, /\| A2A JS SDK \| 2,304\.7 \| 2,600\.0 \| 3,100\.2 \| 150\.0 \|/);
  assert.match(md, /\*\*Busy machine\.\*\* 1 of 2 trials started with a 1-minute load average above the 4 allowed cores \(load 1\.25–6\.50/);
  assert.match(md, /\| A2A JS SDK \| 50 \| 166 \|/);
  const index = readFileSync(join(site, "index.md"), "utf8");
  assert.match(index, /\[A2A layer cost\]\(a2a-layer-cost\.md\)/);
});

test("timing results without the declared capacity rates are refused, naming the key", async () => {
  const results = mkdtempSync(join(tmpdir(), "wirecost-a2a-page-"));
  writeResults(results, { agentTurnSeconds: [1, 30] });
  await assert.rejects(
    render({ results, site: `${results}-site` }),
    (e: unknown) => e instanceof UserError && e.key === "timing.assumptions.capacityRequestsPerSecond" && /timings-run\.json/.test(e.message),
  );
});

test("from 5 trials the A2A page prints the bootstrap interval of timings.tsv's trials, names it, and sets the two probes side by side", async () => {
  const results = mkdtempSync(join(tmpdir(), "wirecost-a2a-page-"));
  const dir = join(results, "a2a-layer-cost");
  writeResults(dir, { capacityRequestsPerSecond: [10], agentTurnSeconds: [1, 30] }, 2, 250, {
    "a2a-rust-pinned": { cpu_per_request_us: 200, calls: 5000, tput_c1_cpu_per_request_us: 220, tput_c50_cpu_per_request_us: 110 },
  });
  // Five ok trials of one figure (a failed sixth is left out): with 5 trials the 95 % percentile
  // bootstrap interval of the median is their min–max (test/generators/bootstrap.test.ts), here 2,300–2,500,
  // not the summary's min–max (2,121.5–2,593.0), so the page read the trials.
  const trials = [2357.26, 2300, 2500, 2350, 2400];
  const rows = ["config\ttrial\tseq\tlayout\tworkload\tstatus\tmetric\tvalue"];
  trials.forEach((v, i) => rows.push(`a2a-js-pinned\t${i + 1}\t${i + 1}\tpinned\ta2a-send-message\tok\tcpu_per_request_us\t${v}`));
  rows.push("a2a-js-pinned\t6\t6\tpinned\ta2a-send-message\tfailed\terror\t0");
  writeFileSync(join(dir, "timings.tsv"), rows.join("\n") + "\n");
  const site = `${results}-site`;
  await render({ results, site });
  const md = readFileSync(join(site, "a2a-layer-cost.md"), "utf8");
  assert.match(md, /\| A2A JS SDK \| pinned \| 2,357\.3 \| 2,300\.0–2,500\.0 \|/);
  // The summary says 3 trials for the other configurations: the words name both intervals.
  assert.match(
    md,
    /in brackets the percentile bootstrap 95 % interval of the median \(10,000 resamples[^)]*\), or the trials' min–max where there are fewer than 5 trials/,
  );
  // The probes: which one the headline uses; the window's requests, ticks and quantisation; minus and times the floor.
  assert.match(md, /The headline and the answer use the \*\*fixed-count probe\*\*/);
  assert.match(md, /\| a2a-js \| pinned \| time window, 1 connection \| 1,210 \| 2,421\.5 \| [^|]+ \| 293 \| 2,420\.0 \| 0\.34 % \| 2,351\.5 \| 34\.6× \|/);
  assert.match(md, /\| a2a-js \| pinned \| time window, 50 connections \| 498 \| 2,500\.0 \| [^|]+ \| — \| — \| — \| 2,480\.0 \| 125\.0× \|/);
  // The formula and the tick's length from timings-run.json (250 ticks per second: 4 ms).
  assert.match(
    md,
    /Quantisation error = 1 tick ÷ the ticks counted × 100 %.* One tick is 1\/250 s = 4 ms here \(`getconf CLK_TCK` = 250, recorded in `timings-run\.json`\)\./,
  );
  // Concurrency from the data: 2421.5 → 2500 is +3 %; the floor 70 → 20 is −71 %.
  assert.match(md, /\+3 % for `a2a-js` \(2,421\.5 → 2,500\.0 µs\), -50 % for `a2a-rust` \(220\.0 → 110\.0 µs\), -71 % for `floor` \(70\.0 → 20\.0 µs\)/);
  // The widest pair under each probe: 2357.26 / 200 = 11.8×, 2421.5 / 220 = 11.0×, 2500 / 110 = 22.7×; floor subtracted
  // 2283.86 / 126.6 = 18.0×, 2351.5 / 150 = 15.7×, 2480 / 90 = 27.6×; concurrency: 2500 / 2421.5 = 1.03, 110 / 220 = 0.50, 1.0324 / 0.5 = 2.06.
  assert.match(
    md,
    /\*\*pinned\*\*, the widest pair, `a2a-js` : `a2a-rust`: 11\.8× \(fixed count\), 11\.0× \(time window, 1 connection\), 22\.7× \(time window, 50 connections\); with the floor's CPU per request subtracted from both, 18\.0× \(fixed count\), 15\.7× \(time window, 1 connection\), 27\.6× \(time window, 50 connections\)\. From 1 to 50 connections `a2a-js`'s CPU per request is multiplied by 1\.03 and `a2a-rust`'s by 0\.50, so the ratio between them by 2\.06\./,
  );
  assert.doesNotMatch(md, /predate the windows' tick figures/);
});

test("the A2A page says when the results did not record the tick's length, and refuses one that is not a positive number, naming the key", async () => {
  const results = mkdtempSync(join(tmpdir(), "wirecost-a2a-page-"));
  const dir = join(results, "a2a-layer-cost");
  writeResults(dir, { capacityRequestsPerSecond: [10], agentTurnSeconds: [1, 30] }, 2);
  await render({ results, site: `${results}-site` });
  assert.match(readFileSync(join(`${results}-site`, "a2a-layer-cost.md"), "utf8"), /The tick's length was not recorded with these results/);
  writeResults(dir, { capacityRequestsPerSecond: [10], agentTurnSeconds: [1, 30] }, 2, "100");
  await assert.rejects(
    render({ results, site: `${results}-site` }),
    (e: unknown) => e instanceof UserError && e.key === "machine.clockTicksPerSecond" && /timings-run\.json/.test(e.message) && !e.message.includes("\n"),
  );
});

test("a timing folder of an unknown schema version is refused in one line naming the key", async () => {
  const results = mkdtempSync(join(tmpdir(), "wirecost-a2a-page-"));
  writeResults(results, { capacityRequestsPerSecond: [10], agentTurnSeconds: [1, 30] }, 9);
  await assert.rejects(
    render({ results, site: `${results}-site` }),
    (e: unknown) => e instanceof UserError && e.key === "schemaVersion" && /is 9, this wirecost reads 1 and 2/.test(e.message) && !e.message.includes("\n"),
  );
});
