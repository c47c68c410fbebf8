/**
 * The per-call report's client axis: rows timed through each TypeScript target's own SDK client
 * (v1 `Client` of @modelcontextprotocol/sdk, v2 of @modelcontextprotocol/client) beside the
 * thin-client rows, on stdio and HTTP, with the measuring process's CPU per call in every row
 * wirecost timed, and the page's side-by-side table with the differences per call. Real servers,
 * real SDK clients, the real CLI.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cli, root } from "../paths.js";
import { openTickets, ticketsDbPath } from "../../targets/workload/tickets.js";
import { SdkCallClient } from "../../runner/percall/sdk-client.js";
import { ProtocolError } from "../../runner/drivers/types.js";

const dbDir = mkdtempSync(join(tmpdir(), "wirecost-percall-sdk-test-"));
const env = { WIRECOST_WORKLOAD: "tickets", WIRECOST_TICKETS_DIR: dbDir };
const small = "test/fixtures/matrices/percall-small.yaml";

after(() => rmSync(dbDir, { recursive: true, force: true }));

type Row = Record<string, string>;

function readRows(file: string): Row[] {
  const lines = readFileSync(file, "utf8").trimEnd().split("\n");
  const head = lines[0]!.split("\t");
  return lines.slice(1).map((l) => Object.fromEntries(l.split("\t").map((v, i) => [head[i]!, v])));
}

const PAIRS = [
  { thin: "mcp-ts-v1-stdio-2025-11-25", client: /^@modelcontextprotocol\/sdk 1\.\d+\.\d+$/ },
  { thin: "mcp-ts-v1-http-2025-11-25", client: /^@modelcontextprotocol\/sdk 1\.\d+\.\d+$/ },
  { thin: "mcp-ts-v2-stdio-2025-11-25", client: /^@modelcontextprotocol\/client 2\.\d+\.\d+$/ },
  { thin: "mcp-ts-v2-stdio-2026-07-28", client: /^@modelcontextprotocol\/client 2\.\d+\.\d+$/ },
  { thin: "mcp-ts-v2-http-2025-11-25", client: /^@modelcontextprotocol\/client 2\.\d+\.\d+$/ },
  { thin: "mcp-ts-v2-http-2026-07-28", client: /^@modelcontextprotocol\/client 2\.\d+\.\d+$/ },
];

describe("SDK client rows of the per-call report", () => {
  let dir: string;
  let site: string;
  let rows: Map<string, Row>;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "wirecost-percall-sdk-run-"));
    site = mkdtempSync(join(tmpdir(), "wirecost-percall-sdk-site-"));
    execFileSync("node", [cli, "run", small, "--only", "mcp-ts-*", "--only", "direct-in-process", "--results", dir], {
      cwd: root,
      stdio: "pipe",
      env: { ...process.env, ...env },
    });
    rows = new Map(readRows(join(dir, "percall.tsv")).map((r) => [r.config!, r]));
    execFileSync("node", [cli, "render", "--results", dir, "--site", site], { stdio: "pipe" });
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(site, { recursive: true, force: true });
  });

  it("measures an SDK-client row beside each thin-client row, both generations, stdio and HTTP", () => {
    for (const p of PAIRS) {
      const thin = rows.get(p.thin);
      const sdk = rows.get(`${p.thin}-sdk-client`);
      assert.ok(thin && sdk, `rows ${p.thin} and its -sdk-client row present`);
      assert.equal(thin.status, "ok", thin.reason);
      assert.equal(sdk.status, "ok", sdk.reason);
      assert.equal(thin.client, "wirecost");
      assert.match(sdk.client!, p.client);
      assert.equal(sdk.measured_by, "wirecost");
      for (const k of ["target", "transport", "revision"]) assert.equal(sdk[k], thin[k], k);
      assert.ok(Number(sdk.p50_us) > 0 && Number(sdk.p95_us) >= Number(sdk.p50_us), `${sdk.config}: p50 ${sdk.p50_us} p95 ${sdk.p95_us}`);
      assert.equal(sdk.setup_samples, "2", "one start-up per trial plus setupRepeats");
      assert.ok(Number(sdk.setup_first_call_ms) >= Number(sdk.setup_listed_ms) && Number(sdk.setup_listed_ms) >= Number(sdk.setup_open_ms));
      assert.ok(Number(sdk.loop_batch_ms) > 0 && Number(sdk.loop_concurrent_ms) > 0, "loops measured through the SDK client");
    }
    const payload = readRows(join(dir, "percall-payload.tsv"));
    assert.equal(payload.filter((r) => r.config!.endsWith("-sdk-client")).length, PAIRS.length * 2, "two payload limits per SDK-client row");
  });

  it("states the measuring process's CPU per call in every row, and it is plausible", () => {
    assert.equal(rows.size, 1 + PAIRS.length * 2);
    for (const r of rows.values()) {
      const cpu = Number(r.client_cpu_per_call_us);
      assert.ok(r.client_cpu_per_call_us !== "" && cpu > 0, `${r.config}: CPU per call ${r.client_cpu_per_call_us}`);
      assert.ok(cpu < 1e6, `${r.config}: CPU per call ${cpu} µs is not plausible for one call of ~6 KB`);
    }
    const samples = readRows(join(dir, "percall-samples.tsv")).filter((s) => s.kind === "trial" && s.metric === "client_cpu_per_call_us");
    assert.equal(samples.length, rows.size, "one CPU sample per trial per row");
  });

  it("the page puts each SDK-client row beside its thin-client row with the difference per call", () => {
    const md = readFileSync(join(site, "mcp-per-call-overhead.md"), "utf8");
    const section = md.slice(md.indexOf("## Every client against every server"));
    assert.ok(md.includes("## Every client against every server"), "section present");
    const ms = (us: string | number): string => (Number(us) / 1000).toFixed(3);
    for (const p of PAIRS) {
      const thin = rows.get(p.thin)!;
      const sdk = rows.get(`${p.thin}-sdk-client`)!;
      const line = section.split("\n").find((l) => l.startsWith(`| ${thin.label} | ${sdk.client} |`));
      assert.ok(line, `no side-by-side line for ${p.thin}`);
      const cells = line.split(" | ");
      assert.equal(cells[2], ms(thin.p50_us!));
      assert.equal(cells[3], ms(sdk.p50_us!));
      assert.equal(cells[4], ms(Number(sdk.p50_us) - Number(thin.p50_us)), `${p.thin}: p50 difference`);
      assert.equal(cells[7], ms(Number(sdk.p95_us) - Number(thin.p95_us)), `${p.thin}: p95 difference`);
    }
    // The grid: one line per server, transport and revision; a column per client; a cell the client never ran says so.
    const head = section.split("\n").find((l) => l.startsWith("| server, transport, revision | thin client p50 [ms] |"));
    assert.ok(head, "the grid's header");
    const cellsOf = (l: string): string[] => l.slice(2, -2).split(" | ");
    const columns = cellsOf(head).map((c) => c.replace(/ p50 \[ms\]$/, ""));
    for (const p of PAIRS) {
      const thin = rows.get(p.thin)!;
      const sdk = rows.get(`${p.thin}-sdk-client`)!;
      const line = section.split("\n").find((l) => l.startsWith(`| ${thin.label} | ${ms(thin.p50_us!)} |`));
      assert.ok(line, `no grid line for ${p.thin}`);
      const cells = cellsOf(line);
      assert.equal(cells[columns.indexOf(sdk.client!)], ms(sdk.p50_us!), `${p.thin}: its SDK client's column`);
      const other = columns.findIndex((c, i) => i > 1 && c !== sdk.client);
      assert.equal(cells[other], "not measured", `${p.thin}: the other generation's column`);
    }
  });
});

describe("SdkCallClient", () => {
  it("returns the direct path's rows through the v2 SDK client on stdio", async () => {
    const store = openTickets(ticketsDbPath(env));
    const command = { argv: ["node", join(root, "dist/targets/mcp-ts-v2/server.js"), "--transport", "stdio"], env };
    const { client, setup } = await SdkCallClient.start(
      { command, values: {}, transport: "stdio", revision: "2026-07-28", cwd: root, timeoutMs: 20000 },
      "v2",
      { name: "search_tickets", arguments: { query: "refund", limit: 10 } },
    );
    try {
      assert.ok(setup.firstCallMs >= setup.listedMs && setup.listedMs >= setup.openMs && setup.openMs >= setup.readyMs);
      const r = await client.callTool("search_tickets", { query: "refund", limit: 10 });
      assert.deepEqual(JSON.parse((r.content as Array<{ text: string }>)[0]!.text), store.searchTickets("refund", 10));
    } finally {
      await client.close();
      store.close();
    }
  });

  it("refuses the v1 client at a revision it does not speak, before starting anything", async () => {
    const command = { argv: ["node", join(root, "dist/targets/mcp-ts-v1/server.js"), "--transport", "stdio"], env };
    await assert.rejects(
      SdkCallClient.start({ command, values: {}, transport: "stdio", revision: "2026-07-28", cwd: root, timeoutMs: 20000 }, "v1", { name: "x", arguments: {} }),
      (e: Error) => e instanceof ProtocolError && e.message.includes("speaks 2025-11-25 only"),
    );
  });
});
