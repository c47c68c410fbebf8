/**
 * The Rust per-call target and harness (targets/mcp-rust: the tickets tools on rmcp, and
 * src/harness.rs, `mcp-rust --harness direct|sdk`; README "Per-call harnesses in other languages")
 * through the real CLI: the mcp-rust target built as the matrix says, the direct call in Rust and
 * rmcp's own client against mcp-rust over stdio and Streamable HTTP on both revisions, and mcp-rust
 * under wirecost's thin client, beside wirecost's own direct path; their workload bytes per payload
 * limit equal wirecost's. (A harness whose output omits a part is a recorded failure naming it:
 * test/percall/harness-go.test.ts and harness.test.ts.) Skipped with the reason where cargo is
 * missing (CI=true requires it).
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { root } from "../paths.js";
import { runHarnessMatrix, tsvRows, type HarnessRun, type Row } from "./harness-support.js";
import { loadMatrix } from "../../runner/matrix/parse.js";
import { skipUnless } from "../targets/profile-support.js";

const MATRIX = "test/fixtures/matrices/percall-harness-rust.yaml";
const SDK_PATHS = ["rust-sdk-stdio-2025-11-25", "rust-sdk-stdio-2026-07-28", "rust-sdk-http-2025-11-25", "rust-sdk-http-2026-07-28"];
// mcp-rust over HTTP 2025-11-25 under the thin client is excluded (the fixture says why).
const THIN_PATHS = ["mcp-rust-stdio-2025-11-25", "mcp-rust-stdio-2026-07-28", "mcp-rust-http-2026-07-28"];

describe("the Rust target and harness through the CLI", { skip: skipUnless(loadMatrix(join(root, MATRIX)), "rust-sdk") }, () => {
  let dir: string;
  let run: HarnessRun["run"];
  let rows: Map<string, Row>;
  let cleanup: () => void;
  before(async () => {
    // The first run builds targets/mcp-rust into .wirecost/build/mcp-rust (minutes on 2 cores; later runs reuse it).
    ({ dir, run, rows, cleanup } = await runHarnessMatrix(MATRIX, "harness-rust", 1_200_000));
  });
  after(() => cleanup());

  it("exits 0 with every row written", () => {
    assert.equal(run.exitCode, 0, run.stderr);
    assert.deepEqual([...rows.keys()], ["direct-in-process", "rust-direct-in-process", ...SDK_PATHS, ...THIN_PATHS]);
  });

  it("the direct call in Rust and rmcp's client over stdio and HTTP, both revisions: samples, setup, loops", () => {
    const d = rows.get("rust-direct-in-process")!;
    for (const id of ["rust-direct-in-process", ...SDK_PATHS]) {
      const r = rows.get(id)!;
      assert.equal(r.status, "ok", `${id}: ${r.reason}`);
      assert.equal(r.measured_by, "harness");
      assert.match(r.runtime!, /^rust 1\.\d+\.\d+$/);
      assert.ok(Number(r.p50_us) > 0 && Number(r.p95_us) >= Number(r.p50_us), `${id}: p50 ${r.p50_us} p95 ${r.p95_us}`);
      assert.ok(Number(r.client_cpu_per_call_us) > 0, `${id}: CPU per call ${r.client_cpu_per_call_us}`);
      for (const c of ["loop_sequential_ms", "loop_concurrent_ms", "loop_batch_ms"]) assert.ok(Number(r[c]) > 0, `${id} ${c}: ${r[c]}`);
    }
    assert.equal(d.client, "");
    for (const id of SDK_PATHS) {
      const r = rows.get(id)!;
      assert.equal(r.client, "rmcp 3.11.0");
      assert.equal(r.package_version, "3.11.0", "the version its build resolved");
      assert.equal(r.setup_samples, "1", "the harness's own session, one per trial");
      assert.ok(Number(r.setup_first_call_ms) >= Number(r.setup_listed_ms) && Number(r.setup_listed_ms) >= Number(r.setup_open_ms), id);
      assert.ok(Number(r.p50_us) > Number(d.p50_us), `${id}: over MCP is slower than the direct call`);
    }
  });

  it("mcp-rust serves the tickets workload to wirecost's thin client on both transports and revisions", () => {
    const d = rows.get("direct-in-process")!;
    for (const id of THIN_PATHS) {
      const r = rows.get(id)!;
      assert.equal(r.status, "ok", `${id}: ${r.reason}`);
      assert.equal(r.measured_by, "wirecost");
      assert.ok(Number(r.p50_us) > Number(d.p50_us), `${id}: over MCP is slower than the direct call`);
    }
  });

  it("the payload sweep of every Rust path, with wirecost's workload bytes per limit", () => {
    const payload = tsvRows(join(dir, "percall-payload.tsv"));
    const configs = ["direct-in-process", "rust-direct-in-process", ...SDK_PATHS, ...THIN_PATHS];
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

  it("keeps every timed call of the Rust harness paths in percall-samples.tsv", () => {
    const samples = tsvRows(join(dir, "percall-samples.tsv")).filter((r) => r.kind === "call");
    for (const id of ["rust-direct-in-process", ...SDK_PATHS]) {
      const mine = samples.filter((r) => r.config === id);
      assert.equal(mine.length, 20, `${id}: one row per timed call`);
      assert.ok(mine.every((r) => r.n === "1" && r.metric === "latency_us" && Number(r.value) > 0));
    }
  });
});
