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
import { loadPercallMatrix } from "../../runner/percall/matrix.js";
import { payloadCost, turnShare } from "../../generators/pages/mcp-per-call-overhead.js";
import { UserError } from "../../runner/errors.js";

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
    assert.deepEqual(store.getTickets([7, 3, 999999]).map((t) => t.id), [7, 3]);
    assert.throws(() => store.searchTickets("refund", 0), RangeError);
  });
});

describe("one implementation behind every path", () => {
  for (const p of PATHS) {
    it(`${p.target} ${p.transport} ${p.revision} returns the direct path's rows`, async () => {
      const argv = ["node", join(root, "dist/targets", p.target, "server.js")];
      const { client } = await McpCallClient.start({ argv, transport: p.transport, revision: p.revision, env, cwd: root, timeoutMs: 20000 }, { name: "search_tickets", arguments: { query: "refund", limit: 10 } });
      try {
        const direct = store.searchTickets("refund", 10);
        assert.equal(direct.length, 10);
        assert.deepEqual(JSON.parse(textOf(await client.callTool("search_tickets", { query: "refund", limit: 10 }))), direct);
        const ids = direct.map((t) => t.id).reverse();
        assert.deepEqual(JSON.parse(textOf(await client.callTool("get_tickets", { ids }))), store.getTickets(ids));
        // pipelined: 10 requests in flight at once, each answer matched to its own request by id
        const answers = await Promise.all(ids.map((id) => client.callTool("get_tickets", { ids: [id] })));
        assert.deepEqual(answers.map((a) => (JSON.parse(textOf(a)) as Array<{ id: number }>)[0]!.id), ids);
      } finally {
        await client.close();
      }
    });
  }

  it("without WIRECOST_WORKLOAD the catalog is the default three tools", async () => {
    const argv = ["node", join(root, "dist/targets/mcp-ts-v2/server.js")];
    const { client } = await McpCallClient.start({ argv, transport: "stdio", revision: "2025-11-25", env: { WIRECOST_WORKLOAD: "" }, cwd: root, timeoutMs: 20000 }, { name: "add", arguments: { a: 1, b: 2 } });
    try {
      const list = await client.rpc("tools/list", {});
      assert.deepEqual((list.tools as Array<{ name: string }>).map((t) => t.name), ["echo", "add", "confirm"]);
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
  it("loads the committed matrix", () => {
    const m = loadPercallMatrix(join(root, "matrices/mcp-per-call-overhead.yaml"));
    assert.equal(m.paths[0]!.kind, "direct");
    assert.equal(m.calls, 1000);
    assert.ok(m.assumptions.agentTurnSeconds > 0);
  });

  it("names the key and the fix for an unknown target", () => {
    const dir = mkdtempSync(join(tmpdir(), "wirecost-percall-matrix-"));
    const file = join(dir, "m.yaml");
    writeFileSync(
      file,
      [
        "title: t",
        "percall: {trials: 1, warmupCalls: 0, calls: 1, call: {query: q, limit: 1}, setupRepeats: 0, loop: {calls: 1, repeats: 1}, payload: {limits: [1], calls: 1}, timeoutSeconds: 1,",
        "  assumptions: {agentTurnSeconds: 3, note: n, turnShareRows: []}}",
        "paths: [{id: a, kind: mcp, label: a, target: nope, transport: stdio, revision: '2025-11-25'}]",
        "targets: {}",
      ].join("\n"),
    );
    assert.throws(() => loadPercallMatrix(file), (e: unknown) => e instanceof UserError && e.message.includes("paths[0].target") && e.message.includes("add targets.nope"));
    rmSync(dir, { recursive: true, force: true });
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

describe("page", () => {
  it("renders the committed results through the CLI, figures taken from percall.json", () => {
    const site = mkdtempSync(join(tmpdir(), "wirecost-percall-site-"));
    const resultsDir = join(root, "results/mcp-per-call-overhead");
    execFileSync("node", [cli, "render", "--results", resultsDir, "--site", site], { stdio: "pipe" });
    const md = readFileSync(join(site, "mcp-per-call-overhead.md"), "utf8");
    const data = JSON.parse(readFileSync(join(resultsDir, "percall.json"), "utf8")) as { paths: Array<{ label: string; p50Us: number }>; assumptions: { agentTurnSeconds: number } };
    for (const p of data.paths) {
      const row = md.split("\n").find((l) => l.startsWith(`| ${p.label} |`));
      assert.ok(row, `no row for ${p.label}`);
      assert.ok(row.includes(` ${(p.p50Us / 1000).toFixed(3)} |`), `${p.label}: p50 ${p.p50Us} µs not in ${row}`);
    }
    assert.match(md, /\*\*Assumption:\*\* one agent turn lasts/);
    assert.ok(existsSync(join(site, "mcp-per-call-overhead.html")));
    rmSync(site, { recursive: true, force: true });
  });
});
