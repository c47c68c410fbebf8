/**
 * The per-call report: one implementation behind every path (the direct call and each MCP target,
 * transport and revision return identical rows), the workload's determinism and size, the
 * default catalog left unchanged, the turn-share arithmetic, and the matrix loader's errors.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cli, root } from "../paths.js";
import { generateTickets, openTickets, ticketsDbPath, ticketsText, type TicketStore } from "../../targets/workload/tickets.js";
import { McpCallClient } from "../../runner/percall/client.js";
import { loadMatrix } from "../../runner/matrix/parse.js";
import { expand } from "../../runner/matrix/expand.js";
import { percallOptions, percallPath } from "../../runner/percall/options.js";
import { payloadCost, turnShare } from "../../generators/pages/mcp-per-call-overhead.js";

const dbDir = mkdtempSync(join(tmpdir(), "wirecost-percall-test-"));
const env = { WIRECOST_WORKLOAD: "tickets", WIRECOST_TICKETS_DIR: dbDir };
let store: TicketStore;

before(() => {
  store = openTickets(ticketsDbPath(env)); // builds the database in a fresh folder
});
after(() => {
  store.close();
  rmSync(dbDir, { recursive: true, force: true });
});

const PATHS = [
  { target: "mcp-ts-v1", transport: "stdio", revision: "2025-11-25" },
  { target: "mcp-ts-v1", transport: "http", revision: "2025-11-25" },
  { target: "mcp-ts-v2", transport: "stdio", revision: "2025-11-25" },
  { target: "mcp-ts-v2", transport: "http", revision: "2025-11-25" },
  { target: "mcp-ts-v2", transport: "stdio", revision: "2026-07-28" },
  { target: "mcp-ts-v2", transport: "http", revision: "2026-07-28" },
] as const;

const textOf = (r: Record<string, unknown>): string => (r.content as Array<{ text: string }>)[0]!.text;

describe("workload", () => {
  it("generates the same rows every time, and ~6 KB for limit 10", () => {
    assert.deepEqual(generateTickets(50), generateTickets(50));
    const bytes = Buffer.byteLength(ticketsText(store.searchTickets("refund", 10)));
    assert.ok(bytes > 4500 && bytes < 7500, `limit 10 gave ${bytes} bytes`);
    assert.equal(store.searchTickets("refund", 330).length, 330);
  });

  it("get_tickets keeps the order of the ids and leaves unknown ids out", () => {
    assert.deepEqual(
      store.getTickets([7, 3, 999999]).map((t) => t.id),
      [7, 3],
    );
    assert.throws(() => store.searchTickets("refund", 0), RangeError);
  });
});

describe("one implementation behind every path", () => {
  for (const p of PATHS) {
    it(`${p.target} ${p.transport} ${p.revision} returns the direct path's rows`, async () => {
      const argv = [
        "node",
        join(root, "dist/targets", p.target, "server.js"),
        "--transport",
        p.transport,
        ...(p.transport === "http" ? ["--port", "{port}"] : []),
      ];
      const command = { argv, env };
      const { client } = await McpCallClient.start(
        { command, values: { ...p }, transport: p.transport, revision: p.revision, cwd: root, timeoutMs: 20000 },
        { name: "search_tickets", arguments: { query: "refund", limit: 10 } },
      );
      try {
        const direct = store.searchTickets("refund", 10);
        assert.equal(direct.length, 10);
        assert.deepEqual(JSON.parse(textOf(await client.callTool("search_tickets", { query: "refund", limit: 10 }))), direct);
        const ids = direct.map((t) => t.id).reverse();
        assert.deepEqual(JSON.parse(textOf(await client.callTool("get_tickets", { ids }))), store.getTickets(ids));
        // pipelined: 10 requests in flight at once, each answer matched to its own request by id
        const answers = await Promise.all(ids.map((id) => client.callTool("get_tickets", { ids: [id] })));
        assert.deepEqual(
          answers.map((a) => (JSON.parse(textOf(a)) as Array<{ id: number }>)[0]!.id),
          ids,
        );
      } finally {
        await client.close();
      }
    });
  }

  it("without WIRECOST_WORKLOAD the catalog is the default three tools", async () => {
    const command = { argv: ["node", join(root, "dist/targets/mcp-ts-v2/server.js"), "--transport", "stdio"], env: { WIRECOST_WORKLOAD: "" } };
    const { client } = await McpCallClient.start(
      { command, values: {}, transport: "stdio", revision: "2025-11-25", cwd: root, timeoutMs: 20000 },
      { name: "add", arguments: { a: 1, b: 2 } },
    );
    try {
      const list = await client.rpc("tools/list", {});
      assert.deepEqual(
        (list.tools as Array<{ name: string }>).map((t) => t.name),
        ["echo", "add", "confirm"],
      );
    } finally {
      await client.close();
    }
  });
});

describe("turn share", () => {
  it("multiplies the medians by the call counts and divides by the elapsed time", () => {
    const rows = turnShare(
      [
        { label: "one", calls: 1, turns: 1 },
        { label: "loop", calls: 40, turns: 0 },
      ],
      4000,
      31000,
      3,
    );
    assert.equal(rows[0]!.directMs, 4);
    assert.equal(rows[0]!.overMcpMs, 31);
    assert.equal(rows[0]!.overheadMs, 27);
    assert.equal(rows[0]!.elapsedMs, 3031);
    assert.equal(rows[0]!.overheadShare, 27 / 3031);
    assert.equal(rows[1]!.directMs, 160);
    assert.equal(rows[1]!.overMcpMs, 1240);
    assert.equal(rows[1]!.overheadShare, 1080 / 1240);
    assert.throws(() => turnShare([], -1, 1, 3), RangeError);
  });
});

describe("per-call matrix", () => {
  it("expands the committed matrix into one hundred paths with stable ids, the direct ones in-process, every TypeScript SDK client beside the thin client against every server, the Python, Go and Rust SDK clients against every other server", () => {
    const m = loadMatrix(join(root, "matrices/mcp-per-call-overhead.yaml"));
    const ids = expand(m).configurations.map((c) => c.id);
    assert.deepEqual(ids, [
      "direct-in-process",
      "mcp-ts-v1-stdio-2025-11-25",
      "mcp-ts-v1-stdio-2025-11-25-sdk-v1-client",
      "mcp-ts-v1-stdio-2025-11-25-sdk-v2-client",
      "mcp-ts-v1-stdio-2025-11-25-py-sdk-client",
      "mcp-ts-v1-stdio-2025-11-25-go-sdk-client",
      "mcp-ts-v1-stdio-2025-11-25-rust-sdk-client",
      "mcp-ts-v1-http-2025-11-25",
      "mcp-ts-v1-http-2025-11-25-sdk-v1-client",
      "mcp-ts-v1-http-2025-11-25-sdk-v2-client",
      "mcp-ts-v1-http-2025-11-25-py-sdk-client",
      "mcp-ts-v1-http-2025-11-25-go-sdk-client",
      "mcp-ts-v1-http-2025-11-25-rust-sdk-client",
      "mcp-ts-v2-stdio-2025-11-25",
      "mcp-ts-v2-stdio-2025-11-25-sdk-v1-client",
      "mcp-ts-v2-stdio-2025-11-25-sdk-v2-client",
      "mcp-ts-v2-stdio-2025-11-25-py-sdk-client",
      "mcp-ts-v2-stdio-2025-11-25-go-sdk-client",
      "mcp-ts-v2-stdio-2025-11-25-rust-sdk-client",
      "mcp-ts-v2-stdio-2026-07-28",
      "mcp-ts-v2-stdio-2026-07-28-sdk-v2-client",
      "mcp-ts-v2-stdio-2026-07-28-py-sdk-client",
      "mcp-ts-v2-stdio-2026-07-28-go-sdk-client",
      "mcp-ts-v2-stdio-2026-07-28-rust-sdk-client",
      "mcp-ts-v2-http-2025-11-25",
      "mcp-ts-v2-http-2025-11-25-sdk-v1-client",
      "mcp-ts-v2-http-2025-11-25-sdk-v2-client",
      "mcp-ts-v2-http-2025-11-25-py-sdk-client",
      "mcp-ts-v2-http-2025-11-25-go-sdk-client",
      "mcp-ts-v2-http-2025-11-25-rust-sdk-client",
      "mcp-ts-v2-http-2026-07-28",
      "mcp-ts-v2-http-2026-07-28-sdk-v2-client",
      "mcp-ts-v2-http-2026-07-28-py-sdk-client",
      "mcp-ts-v2-http-2026-07-28-go-sdk-client",
      "mcp-ts-v2-http-2026-07-28-rust-sdk-client",
      "mcp-go-stdio-2025-11-25",
      "mcp-go-stdio-2025-11-25-sdk-v1-client",
      "mcp-go-stdio-2025-11-25-sdk-v2-client",
      "mcp-go-stdio-2025-11-25-py-sdk-client",
      "mcp-go-stdio-2025-11-25-rust-sdk-client",
      "mcp-go-stdio-2026-07-28",
      "mcp-go-stdio-2026-07-28-sdk-v2-client",
      "mcp-go-stdio-2026-07-28-py-sdk-client",
      "mcp-go-stdio-2026-07-28-rust-sdk-client",
      "mcp-go-http-2025-11-25",
      "mcp-go-http-2025-11-25-sdk-v1-client",
      "mcp-go-http-2025-11-25-sdk-v2-client",
      "mcp-go-http-2025-11-25-py-sdk-client",
      "mcp-go-http-2025-11-25-rust-sdk-client",
      "mcp-go-http-2026-07-28",
      "mcp-go-http-2026-07-28-sdk-v2-client",
      "mcp-go-http-2026-07-28-py-sdk-client",
      "mcp-go-http-2026-07-28-rust-sdk-client",
      "mcp-py-stdio-2025-11-25",
      "mcp-py-stdio-2025-11-25-sdk-v1-client",
      "mcp-py-stdio-2025-11-25-sdk-v2-client",
      "mcp-py-stdio-2025-11-25-go-sdk-client",
      "mcp-py-stdio-2025-11-25-rust-sdk-client",
      "mcp-py-stdio-2026-07-28",
      "mcp-py-stdio-2026-07-28-sdk-v2-client",
      "mcp-py-stdio-2026-07-28-go-sdk-client",
      "mcp-py-stdio-2026-07-28-rust-sdk-client",
      "mcp-py-http-2025-11-25",
      "mcp-py-http-2025-11-25-sdk-v1-client",
      "mcp-py-http-2025-11-25-sdk-v2-client",
      "mcp-py-http-2025-11-25-go-sdk-client",
      "mcp-py-http-2025-11-25-rust-sdk-client",
      "mcp-py-http-2026-07-28",
      "mcp-py-http-2026-07-28-sdk-v2-client",
      "mcp-py-http-2026-07-28-go-sdk-client",
      "mcp-py-http-2026-07-28-rust-sdk-client",
      "py-direct-in-process",
      "mcp-py-harness-stdio-2025-11-25",
      "mcp-py-harness-stdio-2026-07-28",
      "mcp-py-harness-http-2025-11-25",
      "mcp-py-harness-http-2026-07-28",
      "go-direct-in-process",
      "mcp-go-harness-stdio-2025-11-25",
      "mcp-go-harness-stdio-2026-07-28",
      "mcp-go-harness-http-2025-11-25",
      "mcp-go-harness-http-2026-07-28",
      "mcp-rust-stdio-2025-11-25",
      "mcp-rust-stdio-2025-11-25-sdk-v1-client",
      "mcp-rust-stdio-2025-11-25-sdk-v2-client",
      "mcp-rust-stdio-2025-11-25-py-sdk-client",
      "mcp-rust-stdio-2025-11-25-go-sdk-client",
      "mcp-rust-stdio-2026-07-28",
      "mcp-rust-stdio-2026-07-28-sdk-v2-client",
      "mcp-rust-stdio-2026-07-28-py-sdk-client",
      "mcp-rust-stdio-2026-07-28-go-sdk-client",
      "mcp-rust-http-2025-11-25-py-sdk-client",
      "mcp-rust-http-2026-07-28",
      "mcp-rust-http-2026-07-28-sdk-v2-client",
      "mcp-rust-http-2026-07-28-py-sdk-client",
      "mcp-rust-http-2026-07-28-go-sdk-client",
      "rust-direct-in-process",
      "mcp-rust-harness-stdio-2025-11-25",
      "mcp-rust-harness-stdio-2026-07-28",
      "mcp-rust-harness-http-2025-11-25",
      "mcp-rust-harness-http-2026-07-28",
    ]);
    const o = percallOptions(m)!;
    assert.equal(o.calls, 1000);
    assert.equal(o.profileHz, 499, "timing.profileHz");
    assert.equal(percallOptions(loadMatrix(join(root, "test/fixtures/matrices/percall-small.yaml")))!.profileHz, 997, "the default rate");
    assert.ok(o.assumptions.agentTurnSeconds > 0);
    const paths = expand(m).configurations.map((c) => percallPath(m, c));
    assert.equal(paths[0]!.kind, "direct");
    const byId = new Map(paths.map((p) => [p.id, p]));
    assert.equal(byId.get("mcp-ts-v2-http-2026-07-28")!.label, "TypeScript SDK v2, http, 2026-07-28");
    const sdk = byId.get("mcp-ts-v1-http-2025-11-25-sdk-v1-client")!;
    assert.ok(sdk.kind === "mcp" && sdk.client === "sdk" && sdk.sdkClient === "v1", JSON.stringify(sdk));
    assert.equal(sdk.label, "TypeScript SDK v1, http, 2025-11-25, v1 SDK client");
    const foreign = byId.get("mcp-go-stdio-2025-11-25-sdk-v2-client")!;
    assert.ok(foreign.kind === "mcp" && foreign.client === "sdk" && foreign.sdkClient === "v2", JSON.stringify(foreign));
    assert.equal(foreign.label, "Go SDK (go-sdk v1.8.0), stdio, 2025-11-25, v2 SDK client");
    const thin = byId.get("mcp-go-http-2026-07-28")!;
    assert.ok(thin.kind === "mcp" && thin.client === "raw");
    const py = byId.get("mcp-go-stdio-2025-11-25-py-sdk-client")!;
    assert.ok(py.kind === "harness" && py.target === "mcp-go" && py.drives === m.targets["mcp-go"]!.commands.stdio, JSON.stringify(py));
    assert.equal(py.label, "Go SDK (go-sdk v1.8.0), stdio, 2025-11-25, Python SDK client (mcp 2.2.0)");
    assert.equal(ids.length, 100);
  });
});

describe("payload cost", () => {
  it("takes the smallest size's p50 and the slope from smallest to largest", () => {
    const c = payloadCost([
      { resultBytes: 2048 + 1024, p50Us: 500 },
      { resultBytes: 1024, p50Us: 100 },
      { resultBytes: 10 * 1024 + 1024, p50Us: 2100 },
    ]);
    assert.equal(c.perMessageUs, 100);
    assert.equal(c.perKbUs, 200);
    assert.throws(() => payloadCost([{ resultBytes: 1, p50Us: 1 }]), RangeError);
  });
});

describe("run and page", () => {
  const small = "test/fixtures/matrices/percall-small.yaml";
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "wirecost-percall-run-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("--only measures one row with its reproduce command; a second --only adds its row and keeps the first", () => {
    const run = (id: string): void =>
      void execFileSync("node", [cli, "run", small, "--only", id, "--results", dir], { cwd: root, stdio: "pipe", env: { ...process.env, ...env } });
    run("mcp-ts-v2-stdio-2026-07-28");
    run("direct-in-process");
    const lines = readFileSync(join(dir, "percall.tsv"), "utf8").trimEnd().split("\n");
    const head = lines[0]!.split("\t");
    const rows = lines.slice(1).map((l) => Object.fromEntries(l.split("\t").map((v, i) => [head[i]!, v])));
    assert.deepEqual(
      rows.map((r) => r.config),
      ["direct-in-process", "mcp-ts-v2-stdio-2026-07-28"],
      "rows in matrix order",
    );
    const mcp = rows[1]!;
    assert.equal(mcp.transport, "stdio");
    assert.equal(mcp.revision, "2026-07-28");
    assert.ok(Number(mcp.p50_us) > 0 && Number(mcp.p95_us) >= Number(mcp.p50_us));
    assert.equal(mcp.setup_samples, "2"); // one per trial (1) plus setupRepeats (1)
    assert.equal(mcp.reproduce, undefined, "results hold data; the page builds the command");
    assert.equal(rows[0]!.setup_samples, "0");
    const payload = readFileSync(join(dir, "percall-payload.tsv"), "utf8").trimEnd().split("\n");
    assert.equal(payload.length, 1 + 2 * 2, "two limits per configuration");
    const runFile = JSON.parse(readFileSync(join(dir, "percall-run.json"), "utf8")) as {
      runs: Array<{ configurations: string[] }>;
      settings: { calls: number };
    };
    assert.deepEqual(
      runFile.runs.map((r) => r.configurations),
      [["mcp-ts-v2-stdio-2026-07-28"], ["direct-in-process"]],
    );
    assert.equal(runFile.settings.calls, 20);
  });

  it("refuses a folder of another schema version in one line before it builds or measures, and leaves it as it was", () => {
    const other = mkdtempSync(join(tmpdir(), "wirecost-percall-v99-"));
    const record = `${JSON.stringify({ schemaVersion: 99, runs: [] })}\n`;
    writeFileSync(join(other, "percall-run.json"), record);
    try {
      assert.throws(
        () =>
          execFileSync("node", [cli, "run", small, "--only", "direct-in-process", "--results", other], {
            cwd: root,
            stdio: "pipe",
            env: { ...process.env, ...env },
          }),
        (e: { stderr: Buffer; status: number }) => {
          const lines = e.stderr.toString().trim().split("\n");
          return e.status !== 0 && lines.length === 1 && /percall-run\.json.*schemaVersion.*99/.test(lines[0]!) && !/trial/.test(lines[0]!);
        },
      );
      assert.equal(readFileSync(join(other, "percall-run.json"), "utf8"), record);
      assert.equal(existsSync(join(other, "percall.tsv")), false, "nothing measured, nothing written");
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it("refuses to add a path measured with other settings beside kept ones (here --repeats), in one line before any trial", () => {
    // The folder holds direct-in-process and mcp-ts-v2-stdio-2026-07-28 at 1 trial (the first test).
    const before = readFileSync(join(dir, "percall.tsv"), "utf8");
    assert.throws(
      () =>
        execFileSync("node", [cli, "run", small, "--only", "direct-in-process", "--repeats", "2", "--results", dir], {
          cwd: root,
          stdio: "pipe",
          env: { ...process.env, ...env },
        }),
      (e: { stderr: Buffer; status: number }) => {
        const lines = e.stderr.toString().trim().split("\n");
        return (
          e.status !== 0 && lines.length === 1 && /1 other path\(s\) were measured with trials 1, here 2/.test(lines[0]!) && /run every path/.test(lines[0]!)
        );
      },
    );
    assert.equal(readFileSync(join(dir, "percall.tsv"), "utf8"), before, "nothing lost");
  });

  it("--only that matches nothing names the expand command", () => {
    assert.throws(
      () => execFileSync("node", [cli, "run", small, "--only", "nope", "--results", dir], { cwd: root, stdio: "pipe" }),
      (e: { stderr: Buffer }) => e.stderr.toString().includes(`matches no configuration — list ids with: npx wirecost expand ${small}`),
    );
  });

  it("run refuses --jobs, --shard and --resume for a per-call matrix, naming the flag", () => {
    assert.throws(
      () => execFileSync("node", [cli, "run", small, "--shard", "1/2", "--results", dir], { cwd: root, stdio: "pipe" }),
      (e: { stderr: Buffer }) => e.stderr.toString().startsWith(`wirecost: --shard: ${small} is a percall matrix`),
    );
  });

  it("verify refuses a per-call matrix and prints the command that re-measures it", () => {
    assert.throws(
      () => execFileSync("node", [cli, "verify", small, "--results", dir], { cwd: root, stdio: "pipe" }),
      (e: { stderr: Buffer; status: number }) =>
        e.status === 1 && e.stderr.toString().includes("which verify does not compare") && e.stderr.toString().includes(`npx wirecost run ${small} --results`),
    );
  });

  it("renders a per-call results folder through the CLI, every figure taken from percall.tsv", () => {
    const site = mkdtempSync(join(tmpdir(), "wirecost-percall-site-"));
    const resultsDir = join(root, "test/fixtures/results-percall");
    execFileSync("node", [cli, "render", "--results", resultsDir, "--site", site], { stdio: "pipe" });
    const md = readFileSync(join(site, "mcp-per-call-overhead.md"), "utf8");
    const lines = readFileSync(join(resultsDir, "percall.tsv"), "utf8").trimEnd().split("\n");
    const head = lines[0]!.split("\t");
    for (const l of lines.slice(1)) {
      const r = Object.fromEntries(l.split("\t").map((v, i) => [head[i]!, v]));
      const row = md.split("\n").find((x) => x.startsWith(`| ${r.label} | \`${r.config}\` |`));
      assert.ok(row, `no row for ${r.config}`);
      assert.ok(row.includes(` ${(Number(r.p50_us) / 1000).toFixed(3)} |`), `${r.config}: p50 ${r.p50_us} µs not in ${row}`);
      // The page builds the command from the row's id and the matrix in percall-run.json.
      const matrixFile = (JSON.parse(readFileSync(join(resultsDir, "percall-run.json"), "utf8")) as { matrix: string }).matrix;
      const command = `npx wirecost run ${matrixFile} --only ${r.config} --results /tmp/wirecost-${r.config} && grep -P '^${r.config}\\t' /tmp/wirecost-${r.config}/percall.tsv`;
      assert.ok(md.includes(`| \`${r.config}\` | \`${command}\` |`), `${r.config}: its reproduce command (own scratch folder) is not on the page`);
    }
    assert.match(md, /\*\*Assumption:\*\* one agent turn lasts/);
    assert.ok(existsSync(join(site, "mcp-per-call-overhead.html")));
    rmSync(site, { recursive: true, force: true });
  });
});
