/**
 * The revision checked on the wire: a server that answers a 2026-07-28 request in the 2025 style
 * (the TypeScript v1 SDK server over stdio, FIELD-NOTES) fails the run with one line in every
 * driver — the raw driver and the SDK client of a bytes run (the real CLI), and the per-call
 * thin client and SDK client — and correctly labelled sessions still pass. Real servers.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { cli, root } from "../paths.js";
import { revisionMismatch } from "../../runner/drivers/mcp/revision.js";
import { McpCallClient } from "../../runner/percall/client.js";
import { SdkCallClient } from "../../runner/percall/sdk-client.js";
import { ProtocolError } from "../../runner/drivers/types.js";

const LINE_2026 =
  /^server answered 2025-era \((tools\/list result without resultType|server\/discover: JSON-RPC error -32601 Method not found)\) to a 2026-07-28 request/;

function tsv(text: string): Record<string, string>[] {
  const [head, ...lines] = text.trimEnd().split("\n");
  const cols = head!.split("\t");
  return lines.map((l) => Object.fromEntries(l.split("\t").map((v, i) => [cols[i]!, v])));
}

describe("revision checked on the wire", () => {
  it("a bytes run of mcp-ts-v1 listed for 2026-07-28 fails each run with the one line (raw and SDK client)", { timeout: 60_000 }, async () => {
    const out = mkdtempSync(join(tmpdir(), "wirecost-revision-"));
    try {
      const r = await execa(process.execPath, [cli, "run", "test/fixtures/matrices/revision-mismatch.yaml", "--results", out], { cwd: root, reject: false });
      assert.equal(r.exitCode, 1, `${r.stdout}\n${r.stderr}`);
      const rows = new Map(tsv(readFileSync(join(out, "runs.tsv"), "utf8")).map((row) => [row.config!, row]));
      const raw = rows.get("raw-mcp-ts-v1-stdio-2026-07-28-plain");
      const sdk = rows.get("sdk-mcp-ts-v1-stdio-2026-07-28-plain");
      assert.equal(raw?.status, "failed");
      assert.match(raw!.error!, /^server answered 2025-era \(tools\/list result without resultType\) to a 2026-07-28 request/);
      assert.equal(sdk?.status, "failed");
      assert.match(sdk!.error!, LINE_2026);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it("revisions: auto on the TypeScript v1 target finds the revisions it speaks (2024-11-05 to 2025-11-25), says why it skips 2026-07-28 and 2024-11-05 over HTTP, and drives the older revisions as they define", {
    timeout: 90_000,
  }, async () => {
    const out = mkdtempSync(join(tmpdir(), "wirecost-auto-"));
    try {
      const r = await execa(process.execPath, [cli, "run", "test/fixtures/matrices/revisions-auto.yaml", "--results", out], { cwd: root, reject: false });
      assert.equal(r.exitCode, 0, `${r.stdout}\n${r.stderr}`);
      assert.match(r.stderr, /^revisions: auto: target mcp-ts-v1 speaks 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25$/m);
      assert.match(
        r.stderr,
        /^ {2}skipped mcp-ts-v1 × 2024-11-05 over http: http: 2024-11-05's HTTP transport is HTTP\+SSE .*they drive 2024-11-05 over stdio\)$/m,
      );
      assert.match(
        r.stderr,
        /^ {2}skipped mcp-ts-v1 × 2026-07-28: stdio: server answered 2025-era \(tools\/list result without resultType\) to a 2026-07-28 request; http: .+$/m,
      );
      const rows = tsv(readFileSync(join(out, "runs.tsv"), "utf8"));
      assert.deepEqual(rows.map((row) => `${row.config} ${row.status}`).sort(), [
        "raw-mcp-ts-v1-http-2025-03-26-plain ok",
        "raw-mcp-ts-v1-http-2025-06-18-plain ok",
        "raw-mcp-ts-v1-http-2025-11-25-plain ok",
        "raw-mcp-ts-v1-stdio-2024-11-05-plain ok",
        "raw-mcp-ts-v1-stdio-2025-03-26-plain ok",
        "raw-mcp-ts-v1-stdio-2025-06-18-plain ok",
        "raw-mcp-ts-v1-stdio-2025-11-25-plain ok",
      ]);
      // What the older revisions put on the wire (specification/2025-06-18/basic/transports, "Protocol
      // Version Header"; client/elicitation): no MCP-Protocol-Version header before 2025-06-18, and no
      // elicitation capability declared before it.
      const c2s = (config: string): string =>
        readFileSync(join(out, "logs", config, "1.jsonl"), "utf8")
          .split("\n")
          .filter((l) => l)
          .map((l) => JSON.parse(l) as { dir: string; b64?: string })
          .filter((o) => o.dir === "c2s" && o.b64 !== undefined)
          .map((o) => Buffer.from(o.b64!, "base64").toString("utf8"))
          .join("");
      const old = c2s("raw-mcp-ts-v1-http-2025-03-26-plain");
      assert.doesNotMatch(old, /MCP-Protocol-Version/i);
      assert.match(old, /"protocolVersion":"2025-03-26","capabilities":\{\}/);
      const newer = c2s("raw-mcp-ts-v1-http-2025-06-18-plain");
      assert.match(newer, /MCP-Protocol-Version: 2025-06-18/);
      assert.match(newer, /"protocolVersion":"2025-06-18","capabilities":\{"elicitation":\{\}\}/);
      assert.match(c2s("raw-mcp-ts-v1-stdio-2024-11-05-plain"), /"protocolVersion":"2024-11-05","capabilities":\{\}/);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  const v1 = { argv: ["node", join(root, "dist/targets/mcp-ts-v1/server.js"), "--transport", "stdio"], env: {} };
  const v2 = { argv: ["node", join(root, "dist/targets/mcp-ts-v2/server.js"), "--transport", "stdio"], env: {} };
  const spec = (command: { argv: string[]; env: Record<string, string> }, revision: string) => ({
    command,
    values: {},
    transport: "stdio" as const,
    revision,
    cwd: root,
    timeoutMs: 20_000,
  });
  const echo = { name: "echo", arguments: { text: "hi" } };

  it("the per-call thin client refuses the 2025-style answer to 2026-07-28, and runs the v2 server at 2026-07-28", { timeout: 60_000 }, async () => {
    await assert.rejects(McpCallClient.start(spec(v1, "2026-07-28"), echo), (e: Error) => e instanceof ProtocolError && LINE_2026.test(e.message));
    const { client } = await McpCallClient.start(spec(v2, "2026-07-28"), echo);
    await client.close();
  });

  it("the per-call SDK client (v2, pinned to 2026-07-28) refuses the v1 server with the one line", { timeout: 60_000 }, async () => {
    await assert.rejects(SdkCallClient.start(spec(v1, "2026-07-28"), "v2", echo), (e: Error) => e instanceof ProtocolError && LINE_2026.test(e.message));
    const { client } = await SdkCallClient.start(spec(v2, "2026-07-28"), "v2", echo);
    await client.close();
  });

  it("the one line names the revision initialize answered (2025 era)", () => {
    const answered = { result: { protocolVersion: "2025-06-18", capabilities: {}, serverInfo: { name: "s", version: "1" } } };
    assert.equal(revisionMismatch("2025-11-25", "initialize", answered)?.message, "server answered 2025-06-18 to a 2025-11-25 request");
    assert.equal(revisionMismatch("2025-06-18", "initialize", answered), undefined);
    assert.equal(revisionMismatch("2025-11-25", "tools/list", { result: { tools: [] } }), undefined);
    assert.equal(revisionMismatch("2026-07-28", "tools/list", { result: { tools: [], resultType: "complete" } }), undefined);
    assert.equal(
      revisionMismatch("2026-07-28", "server/discover", { result: { supportedVersions: ["2025-11-25"], resultType: "complete" } })?.message,
      "server answered 2025-11-25 to a 2026-07-28 request",
    );
  });
});
