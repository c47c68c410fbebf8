/**
 * The time-window probe (the seed write-up's: a fixed window, its request count and the clock
 * ticks' quantisation error) through the CLI: `wirecost run` of a short-window timing matrix
 * against the floor target spending a known 300 µs of CPU per request, then `wirecost render`.
 * Checked from the results files: the request count of each window, the ticks, the quantisation
 * error equal to one tick over the ticks counted, the tick figure equal to ticks × the tick's
 * length (`getconf CLK_TCK`, recorded in `timings-run.json`) ÷ requests and within 2 ticks of the
 * schedstat figure, the known cost recovered; and the A2A page printing the window's row and the
 * tick's length.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { cli, root } from "../paths.js";
import { tempDir } from "../generators/support.js";

const MATRIX = "test/fixtures/matrices/a2a-window-probe.yaml";
const BURN_US = 300;
const WINDOW_S = 1;

/** The one trial's metrics from `timings.tsv` (config floor, status ok). */
function trialMetrics(results: string): Map<string, number> {
  const [head = "", ...rows] = readFileSync(join(results, "timings.tsv"), "utf8").trim().split("\n");
  const h = head.split("\t");
  const out = new Map<string, number>();
  for (const row of rows) {
    const c = Object.fromEntries(row.split("\t").map((v, i) => [h[i], v]));
    assert.equal(c["status"], "ok", row);
    out.set(c["metric"]!, Number(c["value"]));
  }
  return out;
}

test("the time-window probe on a 1 s window against the floor: request count, ticks, and a quantisation error of one tick over the ticks counted, on the page", {
  timeout: 120_000,
}, async () => {
  const dir = tempDir("window-probe");
  const results = join(dir, "results");
  const run = await execa(process.execPath, [cli, "run", MATRIX, "--results", results], { cwd: root, reject: false });
  assert.equal(run.exitCode, 0, run.stderr);
  const hz = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());
  const runFile = JSON.parse(readFileSync(join(results, "timings-run.json"), "utf8")) as { machine: { clockTicksPerSecond: number } };
  assert.equal(runFile.machine.clockTicksPerSecond, hz, "timings-run.json records getconf CLK_TCK");
  const m = trialMetrics(results);
  const get = (k: string): number => {
    const v = m.get(k);
    assert.ok(v !== undefined && Number.isFinite(v), `${k} in timings.tsv`);
    return v;
  };
  await execa(process.execPath, [cli, "render", "--results", results, "--site", join(dir, "site")], { cwd: root });
  const page = readFileSync(join(dir, "site", "a2a-layer-cost.md"), "utf8");
  assert.ok(page.includes(`One tick is 1/${hz} s = ${1000 / hz} ms here (\`getconf CLK_TCK\` = ${hz}`), "the page says the tick's length");
  for (const c of [1, 4]) {
    const p = `tput_c${c}_`;
    const requests = get(`${p}requests`);
    const ticks = get(`${p}ticks`);
    assert.ok(Number.isInteger(requests) && requests > 0, `${c} connection(s): ${requests} requests`);
    // The window's length: requests ÷ requests per second, the 1 s window plus the answers in flight at its end.
    const wallS = requests / get(`${p}requests_per_s`);
    assert.ok(wallS > WINDOW_S * 0.98 && wallS < WINDOW_S + 1, `${c} connection(s): window ${wallS} s`);
    assert.ok(Number.isInteger(ticks) && ticks > 0, `${c} connection(s): ${ticks} ticks`);
    // One tick over the ticks counted, in per cent (timings.tsv keeps 3 decimals).
    assert.ok(
      Math.abs(get(`${p}quantisation_error_pct`) - 100 / ticks) <= 0.0005 + 1e-9,
      `${c} connection(s): ${get(`${p}quantisation_error_pct`)} % for ${ticks} ticks`,
    );
    const ticksUs = (ticks * 1e6) / hz / requests;
    assert.ok(
      Math.abs(get(`${p}ticks_per_request_us`) - ticksUs) <= 0.0005 + 1e-9,
      `${c} connection(s): ticks per request ${get(`${p}ticks_per_request_us`)} µs, want ${ticksUs}`,
    );
    // The ticks agree with schedstat's nanoseconds within 2 ticks over the window.
    const schedS = (get(`${p}cpu_per_request_us`) * requests) / 1e6;
    assert.ok(Math.abs(ticks / hz - schedS) <= 2 / hz, `${c} connection(s): ${ticks} ticks against ${schedS} s by schedstat`);
    // The known cost: a wrong request count (or units) leaves it.
    assert.ok(
      get(`${p}cpu_per_request_us`) >= BURN_US * 0.99,
      `${c} connection(s): ${get(`${p}cpu_per_request_us`)} µs per request, below the ${BURN_US} µs burned`,
    );
    const row = `| floor | default | time window, ${c} connection${c === 1 ? "" : "s"} | ${requests.toLocaleString("en-US")} |`;
    const line = page.split("\n").find((l) => l.startsWith(row));
    assert.ok(line, `the page's probes table has the row ${row}`);
    const cells = line.split("|").map((x) => x.trim());
    assert.equal(cells[7], String(ticks), "the ticks on the page");
    assert.match(cells[9] ?? "", /^\d+\.\d\d %$/, "the quantisation error on the page");
    assert.ok(Math.abs(Number(cells[9]!.slice(0, -2)) - 100 / ticks) <= 0.0051, `the quantisation error on the page, ${cells[9]}, is 100 ÷ ${ticks} ticks`);
  }
});
