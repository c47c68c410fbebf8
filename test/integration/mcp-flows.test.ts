/**
 * The published matrix's flows against the real servers (SDK v1 and v2 targets, raw and SDK
 * clients): the real CLI runs subsets of the committed matrix.yaml once per configuration. Asserts
 * the JSON-RPC message counts each flow × revision × transport requires, that requestState grows
 * the retry by exactly its size, and that v1 × 2026-07-28 is excluded with its reason.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { cli, root } from "../paths.js";

function tsv(text: string): Record<string, string>[] {
  const [head, ...lines] = text.trimEnd().split("\n");
  const cols = head!.split("\t");
  return lines.map((l) => Object.fromEntries(l.split("\t").map((v, i) => [cols[i]!, v])));
}

/** Run the committed matrix restricted to `only` globs, once each; returns runs.tsv rows by config. */
async function run(only: string[]): Promise<Map<string, Record<string, string>>> {
  const out = mkdtempSync(join(tmpdir(), "wirecost-flows-"));
  const r = await execa(process.execPath, [cli, "run", "matrix.yaml", "--repeats", "1", "--results", out, ...only.flatMap((o) => ["--only", o])], {
    cwd: root,
    reject: false,
  });
  assert.equal(r.exitCode, 0, `${r.stdout}\n${r.stderr}`);
  const rows = tsv(readFileSync(join(out, "runs.tsv"), "utf8"));
  for (const row of rows) assert.equal(row.status, "ok", `${row.config}: ${row.error}`);
  return new Map(rows.map((row) => [row.config!, row]));
}

/** JSON-RPC messages [client→server, server→client] the raw driver's flows take. */
const COUNTS: Record<string, Record<string, [number, number]>> = {
  "2025": { plain: [4, 3], input: [4, 3], state: [4, 3], ten: [13, 12] },
  "2026": { plain: [2, 2], input: [2, 2], state: [2, 2], ten: [11, 11] },
};

test("raw driver: message counts of every flow × revision × transport, SDK v2 and v1 targets", { timeout: 120_000 }, async () => {
  const rows = await run(["raw-mcp-ts-v2-*-plain", "raw-mcp-ts-v2-*-input", "raw-mcp-ts-v2-*-state", "raw-mcp-ts-v2-*-ten", "raw-mcp-ts-v1-*-2025-11-25-*"]);
  let checked = 0;
  for (const [target, revisions] of [
    ["mcp-ts-v2", ["2025-06-18", "2025-11-25", "2026-07-28"]],
    ["mcp-ts-v1", ["2025-11-25"]],
  ] as const) {
    for (const revision of revisions) {
      for (const transport of ["stdio", "http"]) {
        for (const flow of ["plain", "input", "state", "ten"]) {
          const id = `raw-${target}-${transport}-${revision}-${flow}`;
          const row = rows.get(id);
          if (flow !== "state" && revision === "2025-06-18" && !row) assert.fail(`${id} did not run`);
          if (!row) continue; // state flow on 2025-06-18 is not in the matrix
          const [c2s, s2c] = COUNTS[revision.slice(0, 4)]![flow]!;
          assert.equal(Number(row.jsonrpc_c2s), c2s, `${id} jsonrpc_c2s`);
          assert.equal(Number(row.jsonrpc_s2c), s2c, `${id} jsonrpc_s2c`);
          assert.equal(Number(row.http_round_trips), transport === "http" ? c2s : 0, `${id} http_round_trips`);
          if (transport === "http" && revision < "2026") assert.equal(Number(row.sse_events), s2c, `${id} sse_events`);
          checked++;
        }
      }
    }
  }
  assert.equal(checked, 28, "configurations checked (v2: 2025-06-18 without state, 2025-11-25, 2026-07-28; v1: 2025-11-25 without state)");
});

test("requestState grows the input_required result and its retry by exactly its size (2026-07-28)", { timeout: 60_000 }, async () => {
  const rows = await run(["raw-mcp-ts-v2-*-state", "raw-mcp-ts-v2-*-state-s2048"]);
  const n = 2048;
  for (const transport of ["stdio", "http"]) {
    const base = rows.get(`raw-mcp-ts-v2-${transport}-2026-07-28-state`)!;
    const big = rows.get(`raw-mcp-ts-v2-${transport}-2026-07-28-state-s${n}`)!;
    assert.ok(base && big, `${transport}: both state cells ran`);
    const d = (col: string) => Number(big[col]) - Number(base[col]);
    if (transport === "stdio") {
      // `,"requestState":"…"` adds 18 bytes of JSON around the state, once in each direction.
      assert.equal(d("c2s_bytes"), n + 18, "stdio c2s: the retry echoes the state");
      assert.equal(d("s2c_bytes"), n + 18, "stdio s2c: the input_required result carries it");
    } else {
      assert.equal(d("request_body_bytes"), n + 18, "http request bodies: the retry echoes the state");
      assert.equal(d("response_body_bytes"), n + 18, "http response bodies: the input_required result carries it");
    }
    // 2025 era: the state never reaches the wire.
    const old = rows.get(`raw-mcp-ts-v2-${transport}-2025-11-25-state`)!;
    const oldBig = rows.get(`raw-mcp-ts-v2-${transport}-2025-11-25-state-s${n}`)!;
    assert.equal(oldBig.jsonrpc_c2s, old.jsonrpc_c2s);
    assert.equal(
      Number(oldBig.c2s_bytes) + Number(oldBig.s2c_bytes) - Number(old.c2s_bytes) - Number(old.s2c_bytes),
      transport === "http" ? Number(oldBig.total_bytes) - Number(old.total_bytes) : 0,
    );
  }
});

test("SDK clients drive the input flow on both generations", { timeout: 60_000 }, async () => {
  const rows = await run(["sdk-mcp-ts-v2-*-2026-07-28-input", "sdk-mcp-ts-v2-http-2025-11-25-input", "sdk-mcp-ts-v1-*-2025-11-25-input"]);
  for (const id of [
    "sdk-mcp-ts-v2-stdio-2026-07-28-input",
    "sdk-mcp-ts-v2-http-2026-07-28-input",
    "sdk-mcp-ts-v2-http-2025-11-25-input",
    "sdk-mcp-ts-v1-stdio-2025-11-25-input",
    "sdk-mcp-ts-v1-http-2025-11-25-input",
  ]) {
    const row = rows.get(id);
    assert.ok(row, `${id} ran`);
    // The answered question: at least the call and its retry (2026) or the call and the answer (2025).
    assert.ok(Number(row.jsonrpc_c2s) >= 2 && Number(row.jsonrpc_s2c) >= 2, `${id}: ${row.jsonrpc_c2s}/${row.jsonrpc_s2c}`);
  }
  // 2025 era: initialize, initialized, the call, the elicitation answer; 3 answers back.
  assert.equal(rows.get("sdk-mcp-ts-v1-stdio-2025-11-25-input")!.jsonrpc_c2s, "4");
  assert.equal(rows.get("sdk-mcp-ts-v1-stdio-2025-11-25-input")!.jsonrpc_s2c, "3");
});

test("expand --all: v1 × 2026-07-28 cells are excluded with the reason", async () => {
  const r = await execa(process.execPath, [cli, "expand", "matrix.yaml", "--all"], { cwd: root });
  const lines = r.stdout.split("\n").filter((l) => l.startsWith("raw-mcp-ts-v1-") || l.startsWith("sdk-mcp-ts-v1-"));
  const modern = lines.filter((l) => l.includes("2026-07-28"));
  assert.ok(modern.length >= 12, `${modern.length} v1 × 2026-07-28 cells listed`);
  for (const l of modern) assert.match(l, /\texcluded\t.*does not speak revision 2026-07-28/, l);
  assert.ok(
    lines.some((l) => l.includes("2025-11-25") && !l.includes("excluded")),
    "v1 × 2025-11-25 cells run",
  );
});
