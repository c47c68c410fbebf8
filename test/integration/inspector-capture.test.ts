/**
 * The MCP Inspector's CLI (matrix.yaml `clients: inspector`, built into .wirecost/build/inspector)
 * run by hand through `wirecost capture` — the stdio tap around mcp-ts-v2, and the relay in front
 * of its HTTP server — counts (`wirecost count`) to the same JSON-RPC messages and bytes as the
 * matrix run of the same client and flow.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { loadMatrix } from "../../runner/matrix/parse.js";
import { freePort } from "../../runner/targets/process.js";
import { cli, root } from "../paths.js";
import { tsv } from "../execute/helpers.js";

/** Columns compared between the hand capture and the matrix run. */
const COMPARED = [
  "jsonrpc_c2s",
  "jsonrpc_s2c",
  "http_round_trips",
  "request_body_bytes",
  "response_body_bytes",
  "newline_bytes",
  "c2s_bytes",
  "s2c_bytes",
  "total_bytes",
];

/** The count row of `wirecost count [--stdio] LOG`, as column → value. */
async function count(log: string, stdio: boolean): Promise<Record<string, string>> {
  const r = await execa(process.execPath, [cli, "count", ...(stdio ? ["--stdio"] : []), log], { cwd: root });
  const [head, row] = r.stdout.trim().split("\n");
  const names = head!.split("\t");
  const values = row!.split("\t");
  return Object.fromEntries(names.map((n, i) => [n, values[i]!]));
}

/** Pick the compared columns of a row. */
const pick = (row: Record<string, string>) => Object.fromEntries(COMPARED.map((c) => [c, row[c]]));

test("the Inspector CLI through wirecost capture (stdio and HTTP) counts the same as the matrix run of the same client and flow", {
  timeout: 240_000,
}, async () => {
  const out = mkdtempSync(join(tmpdir(), "wirecost-inspector-"));
  const results = join(out, "results");
  // The matrix run; it also builds the Inspector client when it is not built yet.
  const run = await execa(
    process.execPath,
    [cli, "run", "matrix.yaml", "--only", "inspector-mcp-ts-v2-*-2025-11-25-call", "--repeats", "1", "--results", results],
    {
      cwd: root,
      reject: false,
    },
  );
  assert.equal(run.exitCode, 0, run.stderr);
  const runs = new Map(tsv(join(results, "runs.tsv")).map((r) => [r.config!, r]));
  const matrix = loadMatrix(join(root, "matrix.yaml"));
  const inspector = join(matrix.clients!.inspector!.build!.dir, "node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js");
  const callArgs = matrix.clients!.inspector!.flows.call!;

  // stdio: the Inspector starts `wirecost capture --log LOG -- node server.js --transport stdio` as its server.
  const stdioLog = join(out, "stdio.jsonl");
  const server = ["dist/targets/mcp-ts-v2/server.js", "--transport", "stdio"];
  const s = await execa(
    process.execPath,
    [inspector, "--cli", ...callArgs, "--", process.execPath, cli, "capture", "--log", stdioLog, "--", process.execPath, ...server],
    {
      cwd: root,
      reject: false,
    },
  );
  assert.equal(s.exitCode, 0, s.stderr);
  assert.match(s.stdout, /"text": "hello"/);
  const stdioRow = await count(stdioLog, true);
  assert.deepEqual(pick(stdioRow), pick(runs.get("inspector-mcp-ts-v2-stdio-2025-11-25-call")!), "stdio: hand capture and matrix run agree");

  // HTTP: the server on a free port, `wirecost capture --upstream` in front of it, the Inspector at the relay's URL.
  const port = await freePort();
  const target = spawn(process.execPath, ["dist/targets/mcp-ts-v2/server.js", "--transport", "http", "--port", String(port)], {
    cwd: root,
    stdio: ["ignore", "ignore", "pipe"],
  });
  try {
    await new Promise<void>((res, rej) => {
      let err = "";
      target.stderr.on("data", (d: Buffer) => {
        err += d.toString();
        if (/listening on/.test(err)) res();
      });
      target.once("exit", (code) => rej(new Error(`target exited ${code}: ${err}`)));
    });
    const httpLog = join(out, "http.jsonl");
    const relay = spawn(process.execPath, [cli, "capture", "--upstream", `127.0.0.1:${port}`, "--log", httpLog], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const relayExit = new Promise<number | null>((res) => relay.once("exit", (code) => res(code)));
    const relayPort = await new Promise<number>((res) => {
      let text = "";
      relay.stdout.on("data", (d: Buffer) => {
        text += d.toString();
        const m = /listening on 127\.0\.0\.1:(\d+)/.exec(text);
        if (m) res(Number(m[1]));
      });
    });
    const h = await execa(process.execPath, [inspector, "--cli", `http://127.0.0.1:${relayPort}/mcp`, "--transport", "http", ...callArgs], {
      cwd: root,
      reject: false,
    });
    assert.equal(h.exitCode, 0, h.stderr);
    relay.kill("SIGINT");
    assert.equal(await relayExit, 0);
    const httpRow = await count(httpLog, false);
    assert.deepEqual(pick(httpRow), pick(runs.get("inspector-mcp-ts-v2-http-2025-11-25-call")!), "HTTP: hand capture and matrix run agree");
  } finally {
    target.kill("SIGTERM");
  }
});

test("the README's Inspector example runs as printed and its log counts the Inspector's tools/list", { timeout: 240_000 }, async () => {
  // The build it names: the matrix's Inspector client (built by the first run of its rows, as the README says).
  const build = await execa(
    process.execPath,
    [
      cli,
      "run",
      "matrix.yaml",
      "--only",
      "inspector-mcp-ts-v2-stdio-2025-11-25-call",
      "--repeats",
      "1",
      "--results",
      mkdtempSync(join(tmpdir(), "wirecost-inspector-")),
    ],
    { cwd: root, reject: false },
  );
  assert.equal(build.exitCode, 0, build.stderr);
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const at = readme.indexOf("e.g. the MCP Inspector's CLI over stdio");
  const line = /```sh\n(.+)\n```/.exec(readme.slice(at))?.[1];
  assert.ok(line?.includes("mcp-inspector --cli") && line.includes("--log /tmp/stdio.jsonl"), `the example line: ${line}`);
  const log = join(mkdtempSync(join(tmpdir(), "wirecost-readme-")), "stdio.jsonl");
  const r = await execa("bash", ["-c", line!.replace("/tmp/stdio.jsonl", log)], { cwd: root, reject: false });
  assert.equal(r.exitCode, 0, r.stderr);
  assert.match(r.stdout, /"name": "echo"/);
  const row = await count(log, true);
  assert.equal(row.jsonrpc_c2s, "3", "initialize, initialized, tools/list");
  assert.equal(row.jsonrpc_s2c, "2");
});
