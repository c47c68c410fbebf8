/**
 * The Go per-call harness (targets/mcp-go/harness.go, `mcp-go --harness direct|sdk`; README
 * "Per-call harnesses in other languages") through the real CLI: the mcp-go target built as the
 * matrix says, the direct call in Go and go-sdk's own client against mcp-go over stdio and
 * Streamable HTTP on both revisions, beside wirecost's own direct path; their workload bytes per
 * payload limit equal wirecost's; and a harness whose output omits its samples is a recorded
 * failure naming the missing part. Skipped with the reason where Go is missing (CI=true requires it).
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { root } from "../paths.js";
import { runHarnessMatrix, tsvRows, type HarnessRun, type Row } from "./harness-support.js";
import { loadMatrix } from "../../runner/matrix/parse.js";
import { skipUnless } from "../targets/profile-support.js";

const MATRIX = "test/fixtures/matrices/percall-harness-go.yaml";
const SDK_PATHS = ["go-sdk-stdio-2025-11-25", "go-sdk-stdio-2026-07-28", "go-sdk-http-2025-11-25", "go-sdk-http-2026-07-28"];

describe("the Go harness through the CLI", { skip: skipUnless(loadMatrix(join(root, MATRIX)), "go-sdk") }, () => {
  let dir: string;
  let run: HarnessRun["run"];
  let rows: Map<string, Row>;
  let cleanup: () => void;
  before(async () => {
    // The first run builds targets/mcp-go into .wirecost/build/mcp-go (seconds with Go's caches warm).
    ({ dir, run, rows, cleanup } = await runHarnessMatrix(MATRIX, "harness-go", 300_000));
  });
  after(() => cleanup());

  it("exits 1 naming only the harness that omitted its samples, after writing every row", () => {
    assert.equal(run.exitCode, 1, run.stderr);
    assert.match(run.stderr, /wirecost: 1 path\(s\) failed \(recorded in percall\.tsv with the reason\): no-samples-stdio-2025-11-25 \(/);
    assert.deepEqual([...rows.keys()], ["direct-in-process", "go-direct-in-process", ...SDK_PATHS, "no-samples-stdio-2025-11-25"]);
  });

  it("the direct call in Go and go-sdk's client over stdio and HTTP, both revisions: samples, setup, loops", () => {
    const d = rows.get("go-direct-in-process")!;
    for (const id of ["go-direct-in-process", ...SDK_PATHS]) {
      const r = rows.get(id)!;
      assert.equal(r.status, "ok", `${id}: ${r.reason}`);
      assert.equal(r.measured_by, "harness");
      assert.match(r.runtime!, /^go 1\.\d+/);
      assert.ok(Number(r.p50_us) > 0 && Number(r.p95_us) >= Number(r.p50_us), `${id}: p50 ${r.p50_us} p95 ${r.p95_us}`);
      assert.ok(Number(r.client_cpu_per_call_us) > 0, `${id}: CPU per call ${r.client_cpu_per_call_us}`);
      for (const c of ["loop_sequential_ms", "loop_concurrent_ms", "loop_batch_ms"]) assert.ok(Number(r[c]) > 0, `${id} ${c}: ${r[c]}`);
    }
    assert.equal(d.client, "");
    for (const id of SDK_PATHS) {
      const r = rows.get(id)!;
      assert.equal(r.client, "github.com/modelcontextprotocol/go-sdk v1.8.0");
      assert.equal(r.package_version, "v1.8.0", "the version its build resolved");
      assert.equal(r.setup_samples, "1", "the harness's own session, one per trial");
      assert.ok(Number(r.setup_first_call_ms) >= Number(r.setup_listed_ms) && Number(r.setup_listed_ms) >= Number(r.setup_open_ms), id);
      assert.ok(Number(r.p50_us) > Number(d.p50_us), `${id}: over MCP is slower than the direct call`);
    }
  });

  it("the payload sweep of every Go path, with wirecost's workload bytes per limit", () => {
    const payload = tsvRows(join(dir, "percall-payload.tsv"));
    const configs = ["direct-in-process", "go-direct-in-process", ...SDK_PATHS];
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

  it("keeps every timed call of the Go paths in percall-samples.tsv", () => {
    const samples = tsvRows(join(dir, "percall-samples.tsv")).filter((r) => r.kind === "call");
    for (const id of ["go-direct-in-process", ...SDK_PATHS]) {
      const mine = samples.filter((r) => r.config === id);
      assert.equal(mine.length, 20, `${id}: one row per timed call`);
      assert.ok(mine.every((r) => r.n === "1" && r.metric === "latency_us" && Number(r.value) > 0));
    }
  });

  it("a harness whose output omits its samples is a failure naming them", () => {
    const r = rows.get("no-samples-stdio-2025-11-25")!;
    assert.equal(r.status, "failed");
    assert.equal(r.p50_us, "");
    assert.match(r.reason!, /^trial 1: .*must have required property 'samplesUs'/);
  });
});
