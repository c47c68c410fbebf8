/**
 * Every client against every server in a per-call run (README "Per-call harnesses in other
 * languages", "Another server"): a client declared under `clients:` is a harness that drives the
 * configuration's target — its stdio command given as `{stdio}`, or over HTTP the server wirecost
 * started, at `{url}`. The matrix language (the path it makes, `harness.server`); the real thing
 * through the real CLI — the Python SDK's own client (targets/mcp-py/percall_harness.py, the mcp-py
 * build) against the TypeScript SDK v1 server (targets/mcp-ts-v1) on both transports, beside
 * wirecost's thin client — and the page's grid, whose columns are whatever clients were measured.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { cli, root } from "../paths.js";
import { runHarnessMatrix, tsvRows, type HarnessRun, type Row } from "./harness-support.js";
import { loadMatrix, parseMatrix } from "../../runner/matrix/parse.js";
import { expand } from "../../runner/matrix/expand.js";
import { buildRoot } from "../../runner/paths.js";
import { percallPath } from "../../runner/percall/options.js";
import { clientGrid } from "../../generators/pages/mcp-per-call-overhead.js";
import type { FailedPath, PercallRow } from "../../generators/results/percall.js";
import { formatFixed } from "../../generators/format.js";

const MATRIX = "test/fixtures/matrices/percall-clients.yaml";

describe("clients declared in a per-call matrix", () => {
  it("drive the configuration's target as harness paths: the client's command, the target's command to start", () => {
    const m = loadMatrix(join(root, MATRIX));
    const configs = expand(m).configurations;
    assert.deepEqual(
      configs.map((c) => c.id),
      [
        "direct-in-process",
        "mcp-ts-v1-stdio-2025-11-25",
        "mcp-ts-v1-stdio-2025-11-25-py-sdk-client",
        "mcp-ts-v1-http-2025-11-25",
        "mcp-ts-v1-http-2025-11-25-py-sdk-client",
      ],
    );
    const stdio = percallPath(m, configs[2]!);
    assert.equal(stdio.kind, "harness");
    if (stdio.kind !== "harness") return;
    assert.equal(stdio.label, "TypeScript SDK v1, stdio, 2025-11-25, Python SDK client (mcp 2.2.0)");
    assert.equal(stdio.target, "mcp-ts-v1");
    assert.deepEqual(stdio.command.argv.slice(-2), ["--", "{stdio}"]);
    assert.equal(stdio.command.argv[0], join(buildRoot(), "mcp-py", "venv/bin/python"));
    assert.deepEqual(stdio.drives, m.targets["mcp-ts-v1"]!.commands.stdio);
    const http = percallPath(m, configs[4]!);
    assert.ok(http.kind === "harness" && http.command.argv.at(-1) === "{url}" && http.drives === m.targets["mcp-ts-v1"]!.commands.http);
    // The client's profile: follows the client, its paths resolved against the matrix's folder.
    assert.deepEqual(stdio.clientProfile, {
      sampler: "py-spy",
      pySpy: join(buildRoot(), "mcp-py", "venv/bin/py-spy"),
      clientStages: join(root, "targets/mcp-py/client.stages.yaml"),
    });
  });

  it("a harness naming an unknown server, and a bytes matrix's client without flows, are one line each", () => {
    const text = readFileSync(join(root, MATRIX), "utf8");
    const file = join(root, "test/fixtures/matrices/bad-server.yaml"); // read from text, not from the disk
    const bad = text.replace(
      "  direct:\n    label",
      '  py-own:\n    revisions: ["2025-11-25"]\n    harness: { transport: stdio, argv: [python3, x.py], server: mcp-nope }\n  direct:\n    label',
    );
    assert.throws(
      () => parseMatrix(bad, file),
      /bad-server\.yaml:\d+:\d+: unknown target "mcp-nope" — name the target whose server this harness starts, one of: /,
    );
    const bytes = [
      "version: 1",
      "axes:",
      "  - { name: target, values: [t] }",
      "  - { name: transport, values: [stdio] }",
      "  - { name: client, values: [raw, py-sdk] }",
      "  - { name: flow, values: [plain] }",
      '  - { name: revision, values: ["2025-11-25"] }',
      "clients:",
      '  py-sdk: { stdio: { argv: [python3, client.py, "{stdio}"] } }',
      "targets:",
      "  t: { stdio: { argv: [node, server.js] } }",
      "",
    ].join("\n");
    assert.throws(() => parseMatrix(bytes, "m.yaml"), /m\.yaml:\d+:\d+: client py-sdk declares no flows: — add flows:/);
    const noPySpy = text.replace('profile: { sampler: py-spy, pySpy: "{build}/venv/bin/py-spy",', "profile: { sampler: py-spy,");
    assert.throws(() => parseMatrix(noPySpy, file), /bad-server\.yaml:\d+:\d+: client py-sdk samples with py-spy but names no pySpy executable — add pySpy:/);
  });
});

describe("the client × server grid", () => {
  const row = (server: string, transport: string, measuredBy: "wirecost" | "harness", client: string, p50Us: number, label: string): PercallRow =>
    ({
      config: `${server}-${transport}-${client}`,
      target: server,
      server,
      transport,
      revision: "2025-11-25",
      label,
      kind: "mcp",
      measuredBy,
      runtime: measuredBy === "harness" ? "python 3.11.7" : "node v20.20.2",
      client,
      clientCpuPerCallUs: null,
      packageVersion: "",
      p50Us,
      p95Us: p50Us,
      spreadUs: 0,
      trialP50Us: [],
      trialP95Us: [],
      trialMeanUs: [],
      setup: null,
      loops: null,
      payload: [],
    }) as PercallRow;

  it("has a column per client measured, harness clients last, and says failed or not measured, never 0", () => {
    const rows = [
      row("mcp-go", "stdio", "wirecost", "wirecost", 1500, "Go SDK, stdio, 2025-11-25"),
      row("mcp-go", "stdio", "harness", "mcp 2.2.0", 4000, "Go SDK, stdio, 2025-11-25, Python SDK client"),
      row("mcp-go", "http", "wirecost", "wirecost", 2500, "Go SDK, http, 2025-11-25"),
      { ...row("mcp-py", "stdio", "harness", "mcp 2.2.0", 6000, "Python SDK client → mcp-py, stdio, 2025-11-25"), target: "mcp-py-harness" },
    ];
    const failed: FailedPath[] = [
      {
        config: "x",
        label: "Go SDK, http, 2025-11-25, Python SDK client",
        server: "mcp-go",
        transport: "http",
        revision: "2025-11-25",
        client: "mcp 2.2.0",
        measuredBy: "harness",
        reason: "trial 1: …",
      },
    ];
    const lines = clientGrid(rows, failed)!.split("\n");
    assert.equal(lines[0], "| server, transport, revision | thin client p50 [ms] | mcp 2.2.0 (harness, python) p50 [ms] |");
    assert.deepEqual(lines.slice(2), [
      "| Go SDK, stdio, 2025-11-25 | 1.500 | 4.000 |",
      "| Go SDK, http, 2025-11-25 | 2.500 | failed |",
      "| mcp-py, stdio, 2025-11-25 | not measured | 6.000 |",
    ]);
  });
});

/** `python3 -m venv` works here (the mcp-py build needs it). */
const venvOk = spawnSync("python3", ["-m", "venv", "--help"], { stdio: "ignore" }).status === 0;

// Skipped with the reason where the venv module is missing, except under CI=true (as .ci/run runs), where it is required.
describe("the Python SDK client against the TypeScript v1 server through the CLI", {
  skip: venvOk || process.env.CI === "true" ? false : "python3 -m venv is not available (install python3-venv; CI=true requires it)",
}, () => {
  let dir: string;
  let run: HarnessRun["run"];
  let rows: Map<string, Row>;
  let cleanup: () => void;
  before(async () => {
    // The first run builds targets/mcp-py into .wirecost/build/mcp-py (PyPI, about 30 s); later runs reuse it.
    ({ dir, run, rows, cleanup } = await runHarnessMatrix(MATRIX, "clients", 300_000));
  });
  after(() => cleanup());

  it("measures the Python SDK client against the other server on both transports, named as server and client", () => {
    assert.equal(run.exitCode, 0, run.stderr);
    for (const transport of ["stdio", "http"]) {
      const r = rows.get(`mcp-ts-v1-${transport}-2025-11-25-py-sdk-client`)!;
      assert.equal(r.status, "ok", r.reason);
      assert.equal(r.server, "mcp-ts-v1");
      assert.equal(r.target, "mcp-ts-v1");
      assert.equal(r.measured_by, "harness");
      assert.equal(r.client, "mcp 2.2.0");
      assert.match(r.runtime!, /^python 3\.\d+\.\d+$/);
      assert.ok(Number(r.p50_us) > 0 && Number(r.p95_us) >= Number(r.p50_us), `${r.config}: p50 ${r.p50_us} p95 ${r.p95_us}`);
      // A client driving another server times its calls only: its loops are its harness rows'.
      for (const c of ["loop_sequential_ms", "loop_concurrent_ms", "loop_batch_ms"]) assert.equal(r[c] ?? "", "", `${r.config} ${c}: not measured`);
      assert.equal(rows.get(`mcp-ts-v1-${transport}-2025-11-25`)!.server, "mcp-ts-v1");
    }
    // Over stdio the harness started the server and timed its start-up; over HTTP wirecost started it: no setup.
    assert.equal(rows.get("mcp-ts-v1-stdio-2025-11-25-py-sdk-client")!.setup_samples, "1");
    assert.equal(rows.get("mcp-ts-v1-http-2025-11-25-py-sdk-client")!.setup_samples, "0");
    assert.equal(rows.get("direct-in-process")!.server, "");
    const calls = tsvRows(join(dir, "percall-samples.tsv")).filter((s) => s.kind === "call" && s.config!.endsWith("-py-sdk-client"));
    assert.equal(calls.length, 2 * 300, "every timed call of both paths kept");
  });

  it("profiles both processes of a client × server cell: the client by its profile:, the server by the target's, with check (b)'s adjacent windows", () => {
    const profiled = new Map(tsvRows(join(dir, "percall-profiled.tsv")).map((r) => [r.config!, r]));
    const stages = tsvRows(join(dir, "percall-stages.tsv"));
    for (const transport of ["stdio", "http"]) {
      const config = `mcp-ts-v1-${transport}-2025-11-25-py-sdk-client`;
      const p = profiled.get(config)!;
      assert.equal(p.status, "ok", `${config}: ${p.reason}`);
      // py-spy on the Python harness, the TypeScript server's own signal window (over stdio the
      // harness's child, over HTTP the server wirecost started)
      assert.deepEqual([p.client_sampler, p.server_sampler], ["py-spy", "self"], config);
      assert.ok(
        existsSync(join(dir, "profiles", config, "client.folded")) && existsSync(join(dir, "profiles", config, "server.folded")),
        `${config}: both profiles kept`,
      );
      for (const role of ["client", "server"]) {
        const mine = stages.filter((r) => r.config === config && r.process === role);
        assert.ok(mine.length > 0 && !mine.some((r) => r.stage === "not-attributed"), `${config} ${role}: ${JSON.stringify(mine)}`);
      }
      // The same calls unprofiled in the harness's process just before and after its window.
      const adjacent = Number(p.adjacent_us_per_call);
      const window = Number(p.window_us_per_call);
      assert.ok(adjacent > 0 && adjacent < 3 * window && window < 3 * adjacent, `${config}: adjacent ${p.adjacent_us_per_call} µs, window ${window} µs`);
      assert.equal(p.paused_us_per_call, "", `${config}: a harness path has no paused window`);
      assert.equal(p.direct_target, "direct", `${config}: the server's work is the TypeScript direct call`);
    }
  });

  it("the page's grid puts the Python SDK client's column beside the thin client's on the server's lines", async () => {
    const site = mkdtempSync(join(tmpdir(), "wirecost-percall-clients-site-"));
    try {
      await execa("node", [cli, "render", "--results", dir, "--site", site], { cwd: root });
      const md = readFileSync(join(site, "mcp-per-call-overhead.md"), "utf8");
      const ms = (us: string): string => formatFixed(Number(us) / 1000, 3);
      assert.ok(md.includes("| server, transport, revision | thin client p50 [ms] | mcp 2.2.0 (harness, python) p50 [ms] |"), "the grid's header");
      for (const transport of ["stdio", "http"]) {
        const thin = rows.get(`mcp-ts-v1-${transport}-2025-11-25`)!;
        const py = rows.get(`mcp-ts-v1-${transport}-2025-11-25-py-sdk-client`)!;
        assert.ok(md.includes(`| ${thin.label} | ${ms(thin.p50_us!)} | ${ms(py.p50_us!)} |`), `the ${transport} line`);
      }
    } finally {
      rmSync(site, { recursive: true, force: true });
    }
  });
});
