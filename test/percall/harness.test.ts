/**
 * Per-call harnesses (runner/percall/harness.ts, README "Per-call harnesses in other languages"):
 * the output check on its own; the matrix language (`harness:` with `{build}` substituted, the
 * path it measures); and the real thing through the real CLI — the Python harness
 * (targets/mcp-py/percall_harness.py, the mcp-py target built as the matrix says) timing the
 * direct call and the Python SDK's stdio and Streamable HTTP clients, beside wirecost's own direct
 * path, while a harness that prints garbage and one that exits 3 are recorded failures with their
 * reasons; the results keep the samples, the harnesses' loops and payload sweeps, and render.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { cli, root } from "../paths.js";
import { runHarnessMatrix, tsvRows, type HarnessRun, type Row } from "./harness-support.js";
import { loadMatrix } from "../../runner/matrix/parse.js";
import { expand } from "../../runner/matrix/expand.js";
import { buildRoot } from "../../runner/paths.js";
import { percallPath } from "../../runner/percall/options.js";
import { HarnessFailure, parseHarnessOutput, runHarness, type HarnessExpect } from "../../runner/percall/harness.js";
import { formatFixed } from "../../generators/format.js";

const MATRIX = "test/fixtures/matrices/percall-harness.yaml";
const expect = { calls: 3, resultBytes: 6314, revision: "2025-11-25" };
const good = {
  wirecostHarness: 1,
  samplesUs: [10.5, 12, 9.25],
  resultBytes: 6314,
  runtime: { name: "python", version: "3.11.7" },
  sdk: { name: "mcp", version: "2.2.0" },
  protocolVersion: "2025-11-25",
};

/** The HarnessFailure message parseHarnessOutput throws for `stdout`. */
function failure(stdout: string, e: HarnessExpect = expect): string {
  try {
    parseHarnessOutput(stdout, e);
  } catch (err) {
    assert.ok(err instanceof HarnessFailure, String(err));
    return err.message;
  }
  assert.fail(`accepted ${stdout}`);
}

describe("harness output", () => {
  it("accepts one JSON object with calls samples and keeps them in order", () => {
    const out = parseHarnessOutput(`\n${JSON.stringify(good)}\n`, expect);
    assert.deepEqual(out.samplesUs, [10.5, 12, 9.25]);
    assert.equal(out.runtime.version, "3.11.7");
    const minimal = { wirecostHarness: 1, samplesUs: [1, 2, 3], resultBytes: 6314, runtime: { name: "go", version: "1.26" } };
    assert.deepEqual(parseHarnessOutput(JSON.stringify(minimal), { ...expect, revision: "none" }).samplesUs, [1, 2, 3]);
  });

  it("refuses what is not that object, naming what is wrong", () => {
    assert.match(failure(""), /printed nothing on stdout/);
    assert.match(failure("ok 1 2 3"), /printed no JSON object on stdout \(it begins "ok 1 2 3"\)/);
    assert.match(failure(`${JSON.stringify(good)}\n${JSON.stringify(good)}`), /printed no JSON object.*Unexpected/);
    assert.match(failure(JSON.stringify({ ...good, samplesUs: [1, 0, 2] })), /\/samplesUs\/1 must be > 0/);
    assert.match(failure(JSON.stringify({ ...good, samples_us: [] })), /has unknown key "samples_us"/);
    assert.match(failure(JSON.stringify({ ...good, wirecostHarness: 2 })), /\/wirecostHarness must be equal to constant/);
    const { runtime: _r, ...noRuntime } = good;
    assert.match(failure(JSON.stringify(noRuntime)), /must have required property 'runtime'/);
    // JSON.parse reads 1e999 as Infinity: not a finite number
    assert.match(failure(JSON.stringify(good).replace("[10.5,", "[1e999,")), /\/samplesUs\/0 must be number/);
  });

  it("a call over 60 s is named as a stall of the path, not as a malformed output", () => {
    assert.match(
      failure(JSON.stringify({ ...good, samplesUs: [10, 60_003_315, 12] })),
      /^call 2 took over 60 s \(\/samplesUs\/1\): the path stalled that long, beyond the 60 s a timing histogram holds$/,
    );
    assert.doesNotThrow(() => parseHarnessOutput(JSON.stringify({ ...good, samplesUs: [10, 60e6, 12] }), expect), "60 s itself is in range");
  });

  it("checks the count, the work and the revision against the run", () => {
    assert.match(failure(JSON.stringify({ ...good, samplesUs: [1, 2] })), /printed 2 samples for WIRECOST_CALLS=3/);
    assert.match(failure(JSON.stringify({ ...good, resultBytes: 100 })), /its result is 100 bytes, the workload's is 6314 bytes/);
    assert.match(failure(JSON.stringify(good), { ...expect, revision: "2026-07-28" }), /negotiated 2025-11-25, the configuration's revision is 2026-07-28/);
  });

  it("checks loops and the payload sweep against what was asked", () => {
    const loop = { sequentialMs: 4, concurrentMs: 2, batchMs: 0.5 };
    const point = (limit: number, resultBytes: number, n = 2) => ({ limit, resultBytes, samplesUs: Array.from({ length: n }, () => 7) });
    const asked = {
      ...expect,
      loopRepeats: 2,
      payload: {
        calls: 2,
        bytes: [
          { limit: 2, resultBytes: 1300 },
          { limit: 40, resultBytes: 25000 },
        ],
      },
    };
    const ok = { ...good, loops: [loop, loop], payload: [point(2, 1300), point(40, 25000)] };
    assert.deepEqual(parseHarnessOutput(JSON.stringify(ok), asked).loops, [loop, loop]);
    assert.equal(parseHarnessOutput(JSON.stringify(good), asked).loops, undefined, "a harness may leave them out (not measured)");
    assert.match(failure(JSON.stringify({ ...ok, loops: [loop] }), asked), /printed 1 loop repeats for WIRECOST_LOOP_REPEATS=2/);
    assert.match(failure(JSON.stringify(ok), expect), /printed loops that were not asked for/);
    assert.match(failure(JSON.stringify({ ...ok, loops: undefined }), expect), /printed a payload sweep that was not asked for/);
    assert.match(
      failure(JSON.stringify({ ...ok, payload: [point(40, 25000), point(2, 1300)] }), asked),
      /printed payload limits 40,2 for WIRECOST_PAYLOAD_LIMITS=2,40/,
    );
    assert.match(
      failure(JSON.stringify({ ...ok, payload: [point(2, 1300, 1), point(40, 25000)] }), asked),
      /printed 1 payload samples at limit 2 for WIRECOST_PAYLOAD_CALLS=2/,
    );
    assert.match(
      failure(JSON.stringify({ ...ok, payload: [point(2, 999), point(40, 25000)] }), asked),
      /its result at limit 2 is 999 bytes, the workload's is 1300 bytes/,
    );
    assert.match(failure(JSON.stringify({ ...ok, loops: [{ ...loop, batchMs: -1 }, loop] }), asked), /\/loops\/0\/batchMs must be >= 0/);
  });
});

describe("running a harness", () => {
  const call = { ticketsDb: "/tmp/db {x}.sqlite", query: "re{fund}", limit: 10, calls: 3, warmupCalls: 2 };
  it("gives it the protocol's environment and the axes, braces intact", async () => {
    // Prints valid output only when every variable arrived as set.
    const script = `const e = process.env; const ok = e.WIRECOST_TICKETS_DB === "/tmp/db {x}.sqlite" && e.WIRECOST_QUERY === "re{fund}" && e.WIRECOST_LIMIT === "10" && e.WIRECOST_WARMUP_CALLS === "2" && e.WIRECOST_TRANSPORT === "stdio" && e.WIRECOST_REVISION === "2025-11-25";
      if (!ok) { console.error("env: " + JSON.stringify(e)); process.exit(4); }
      console.log(JSON.stringify({ wirecostHarness: 1, samplesUs: Array(Number(e.WIRECOST_CALLS)).fill(7), resultBytes: 6314, runtime: { name: "node", version: process.version } }));`;
    const r = await runHarness({
      command: { argv: ["node", "-e", script], env: {} },
      values: { transport: "stdio", revision: "2025-11-25" },
      cwd: root,
      timeoutMs: 20000,
      call,
      expect,
    });
    assert.ok("output" in r, "reason" in r ? r.reason : "");
    assert.deepEqual(r.output.samplesUs, [7, 7, 7]);
  });

  it("stops a harness that runs past the limit, with its stderr", async () => {
    const r = await runHarness({
      command: { argv: ["node", "-e", "console.error('still timing'); setTimeout(() => {}, 60000)"], env: {} },
      values: {},
      cwd: root,
      timeoutMs: 1500,
      call,
      expect,
    });
    assert.deepEqual(r, { reason: "did not finish within 1.5 s (timeoutSeconds): still timing" });
  });

  it("names a program that cannot start", async () => {
    const r = await runHarness({ command: { argv: ["wirecost-no-such-harness"], env: {} }, values: {}, cwd: root, timeoutMs: 5000, call, expect });
    assert.ok("reason" in r && /^could not start: .*ENOENT.* — fix harness\.argv$/.test(r.reason), JSON.stringify(r));
  });
});

describe("harness targets in the matrix", () => {
  it("a harness target takes only the transport it measures, {build} substituted in its argv", () => {
    const m = loadMatrix(join(root, MATRIX));
    const ids = expand(m).configurations.map((c) => c.id);
    assert.deepEqual(ids, [
      "direct-in-process",
      "py-direct-in-process",
      "py-sdk-stdio-2025-11-25",
      "py-sdk-http-2025-11-25",
      "garbage-stdio-2025-11-25",
      "exit3-stdio-2025-11-25",
    ]);
    const sdk = m.targets["py-sdk"]!.harness!;
    assert.deepEqual(sdk.transports, ["stdio", "http"]);
    assert.equal(sdk.command.argv[0], join(buildRoot(), "mcp-py", "venv/bin/python"));
    const paths = expand(m).configurations.map((c) => percallPath(m, c));
    assert.deepEqual(
      paths.map((p) => [p.kind, p.label]),
      [
        ["direct", "direct (in-process function call)"],
        ["harness", "Python direct"],
        ["harness", "Python SDK client → mcp-py, stdio, 2025-11-25"],
        ["harness", "Python SDK client → mcp-py, http, 2025-11-25"],
        ["harness", "harness printing garbage, stdio, 2025-11-25"],
        ["harness", "harness exiting 3, stdio, 2025-11-25"],
      ],
    );
  });
});

/** `python3 -m venv` works here (the mcp-py build needs it). */
const venvOk = spawnSync("python3", ["-m", "venv", "--help"], { stdio: "ignore" }).status === 0;

// Skipped with the reason where the venv module is missing, except under CI=true (as .ci/run runs), where it is required.
describe("harnesses through the CLI", {
  skip: venvOk || process.env.CI === "true" ? false : "python3 -m venv is not available (install python3-venv; CI=true requires it)",
}, () => {
  let dir: string;
  let run: HarnessRun["run"];
  let rows: Map<string, Row>;
  let cleanup: () => void;
  before(async () => {
    // The first run builds targets/mcp-py into .wirecost/build/mcp-py (PyPI, about 30 s); later runs, and the published matrix, reuse it.
    ({ dir, run, rows, cleanup } = await runHarnessMatrix(MATRIX, "harness", 300_000));
  });
  after(() => cleanup());

  it("exits 1 naming the failed paths, after writing every row", () => {
    assert.equal(run.exitCode, 1, run.stderr);
    assert.match(
      run.stderr,
      /wirecost: 2 path\(s\) failed \(recorded in percall\.tsv with the reason\): garbage-stdio-2025-11-25 \(.+\); exit3-stdio-2025-11-25 \(/,
    );
    assert.deepEqual(
      [...rows.keys()],
      ["direct-in-process", "py-direct-in-process", "py-sdk-stdio-2025-11-25", "py-sdk-http-2025-11-25", "garbage-stdio-2025-11-25", "exit3-stdio-2025-11-25"],
    );
  });

  it("the Python harness gives samples, loops and the payload sweep for the direct call and the SDK's stdio and HTTP clients", () => {
    const d = rows.get("py-direct-in-process")!;
    const s = rows.get("py-sdk-stdio-2025-11-25")!;
    const h = rows.get("py-sdk-http-2025-11-25")!;
    for (const r of [d, s, h]) {
      assert.equal(r.status, "ok", r.reason);
      assert.equal(r.measured_by, "harness");
      assert.match(r.runtime!, /^python 3\.\d+\.\d+$/);
      assert.ok(Number(r.p50_us) > 0 && Number(r.p95_us) >= Number(r.p50_us), `${r.config}: p50 ${r.p50_us} p95 ${r.p95_us}`);
      for (const c of ["loop_sequential_ms", "loop_concurrent_ms", "loop_batch_ms"]) assert.ok(Number(r[c]) > 0, `${r.config} ${c}: ${r[c]}`);
    }
    for (const r of [s, h]) {
      assert.equal(r.client, "mcp 2.2.0");
      assert.equal(r.package_version, "2.2.0", "the version its build resolved");
      assert.equal(r.setup_samples, "1", "the harness's own session, one per trial");
      assert.ok(Number(r.setup_first_call_ms) >= Number(r.setup_listed_ms) && Number(r.setup_listed_ms) >= Number(r.setup_open_ms));
      assert.ok(Number(r.p50_us) > Number(d.p50_us), `${r.config}: over MCP is slower than the direct call`);
    }
    assert.equal(d.client, "");
    // Over HTTP each call is a POST answered on loopback: about 4-5 ms here, not the 40 ms of a delayed ACK (Nagle left on).
    assert.ok(Number(h.p50_us) < 30_000, `HTTP p50 ${h.p50_us} µs: a 40 ms delayed-ACK wait per call is back`);
  });

  it("the payload sweep of every path that measured it, with the workload's bytes per limit", () => {
    const payload = tsvRows(join(dir, "percall-payload.tsv"));
    const configs = ["direct-in-process", "py-direct-in-process", "py-sdk-stdio-2025-11-25", "py-sdk-http-2025-11-25"];
    assert.deepEqual(
      payload.map((p) => `${p.config} ${p.limit}`),
      configs.flatMap((c) => [`${c} 2`, `${c} 40`]),
    );
    for (const limit of ["2", "40"]) {
      const bytes = new Set(payload.filter((p) => p.limit === limit).map((p) => p.result_bytes));
      assert.equal(bytes.size, 1, `limit ${limit}: one result size on every path (${[...bytes].join(", ")})`);
    }
    assert.ok(payload.every((p) => Number(p.p50_us) > 0 && Number(p.p95_us) >= Number(p.p50_us)));
  });

  it("wirecost's own direct path still measures, loops and payload included", () => {
    const r = rows.get("direct-in-process")!;
    assert.equal(r.status, "ok");
    assert.equal(r.measured_by, "wirecost");
    assert.match(r.runtime!, /^node v\d+/);
    assert.ok(Number(r.loop_sequential_ms) > 0);
  });

  it("a harness that prints garbage and one that exits 3 are failures with their reasons", () => {
    const g = rows.get("garbage-stdio-2025-11-25")!;
    assert.equal(g.status, "failed");
    assert.equal(g.p50_us, "");
    assert.match(g.reason!, /^trial 1: harness printed no JSON object on stdout \(it begins "samples: 1 2 3 \(not JSON\)"\)/);
    const e = rows.get("exit3-stdio-2025-11-25")!;
    assert.equal(e.status, "failed");
    assert.equal(e.reason, "trial 1: harness exited 3: fault harness: cannot open the ticket database (on purpose)");
  });

  it("keeps every timed call of every path, harness or wirecost's own, in percall-samples.tsv; a failed path keeps none", () => {
    const samples = tsvRows(join(dir, "percall-samples.tsv")).filter((r) => r.kind === "call");
    for (const id of ["direct-in-process", "py-direct-in-process", "py-sdk-stdio-2025-11-25", "py-sdk-http-2025-11-25"]) {
      const mine = samples.filter((r) => r.config === id);
      assert.equal(mine.length, 20, `${id}: one row per timed call`);
      assert.ok(mine.every((r) => r.n === "1" && r.metric === "latency_us" && Number(r.value) > 0));
    }
    assert.ok(!samples.some((r) => r.config!.startsWith("garbage") || r.config!.startsWith("exit3")));
  });

  it("renders the harness rows beside wirecost's, the Python comparison, and the failures", async () => {
    const site = mkdtempSync(join(tmpdir(), "wirecost-percall-harness-site-"));
    try {
      await execa("node", [cli, "render", "--results", dir, "--site", site], { cwd: root });
      const md = readFileSync(join(site, "mcp-per-call-overhead.md"), "utf8");
      const d = rows.get("py-direct-in-process")!;
      const s = rows.get("py-sdk-stdio-2025-11-25")!;
      const ms = (us: string | number): string => formatFixed(Number(us) / 1000, 3); // as the page formats
      assert.ok(
        md.includes(`| Python direct | \`py-direct-in-process\` | harness in ${d.runtime} | — | ${ms(d.p50_us!)} |`),
        "the harness row with its runtime",
      );
      assert.ok(md.includes(`| harness in ${s.runtime}, client mcp 2.2.0 | 2.2.0 | ${ms(s.p50_us!)} |`), "the SDK row with runtime and client");
      assert.ok(md.includes(`## Timed in the server's language: ${d.runtime}`));
      const diff = md.split("\n").find((l) => l.startsWith("| difference: Python SDK client → mcp-py, stdio, 2025-11-25 − Python direct |"));
      assert.ok(diff, "the difference row");
      assert.ok(diff.includes(`| ${ms(Number(s.p50_us) - Number(d.p50_us))} | ${ms(Number(s.p95_us) - Number(d.p95_us))} |`), diff);
      assert.ok(!md.includes("| Python direct | not measured |"), "the harness's loops are measured");
      assert.ok(md.includes("## Paths that failed"));
      assert.ok(
        md.includes(
          "- `exit3-stdio-2025-11-25` (harness exiting 3, stdio, 2025-11-25): trial 1: harness exited 3: fault harness: cannot open the ticket database (on purpose)",
        ),
      );
    } finally {
      rmSync(site, { recursive: true, force: true });
    }
  });
});
