/**
 * wirecost target: an MCP server on `@modelcontextprotocol/sdk` 1.x (2025-era revisions only).
 *
 *   node dist/targets/mcp-ts-v1/server.js --transport stdio
 *   node dist/targets/mcp-ts-v1/server.js --transport http --port N   # 127.0.0.1 only
 *
 * HTTP prints `listening on 127.0.0.1:PORT` on stderr once it accepts connections. Sessionful
 * Streamable HTTP: one McpServer + StreamableHTTPServerTransport per `Mcp-Session-Id`.
 * Exit status: 0 on SIGTERM/SIGINT or end of stdin, 2 on bad arguments or knobs, 1 on a start-up failure.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { targetArgs, usageError } from "../common/cli.js";
import { installProfileWindow } from "../common/profile-window.js";
import { ConfigError, configFromEnv, createTargetServer, type TargetConfig } from "./factory.js";

const HOST = "127.0.0.1";

let stopServing: (() => Promise<void>) | undefined;
let stopping = false;
function shutdown(): void {
  if (stopping) return;
  stopping = true;
  Promise.resolve(stopServing?.())
    .catch(() => {})
    .finally(() => process.exit(0));
}

async function serveStdio(config: TargetConfig): Promise<void> {
  const server = createTargetServer(config);
  const transport = new StdioServerTransport();
  await server.connect(transport);
  stopServing = () => server.close();
  process.stdin.once("end", shutdown);
}

function jsonError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

async function serveHttp(config: TargetConfig, port: number): Promise<void> {
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: McpServer }>();
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const host = (req.headers.host ?? "").replace(/:\d+$/, "");
    if (!["127.0.0.1", "localhost", "[::1]"].includes(host)) return jsonError(res, 403, -32000, "Forbidden host");
    // No standalone GET stream: this server sends nothing outside a request's own response, and the
    // spec lets a server answer the GET with 405. (An open GET stream is cut mid-chunk when the
    // client closes, which leaves an incomplete chunked response on the wire.)
    if (req.method === "GET") {
      res.writeHead(405, { allow: "POST, DELETE" }).end();
      return;
    }
    const sid = req.headers["mcp-session-id"];
    if (typeof sid === "string") {
      const s = sessions.get(sid);
      if (!s) return jsonError(res, 404, -32001, "Session not found");
      return s.transport.handleRequest(req, res);
    }
    const server = createTargetServer(config);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, { transport, server }),
      onsessionclosed: (id) => void sessions.delete(id),
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
    if (transport.sessionId === undefined) await server.close();
  };
  const http = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) jsonError(res, 500, -32603, e instanceof Error ? e.message : String(e));
    });
  });
  await new Promise<void>((resolve, reject) => http.once("error", reject).listen(port, HOST, () => resolve()));
  stopServing = async () => {
    const closed = new Promise<void>((r) => http.close(() => r()));
    http.closeAllConnections();
    await Promise.all([...sessions.values()].map((s) => s.server.close().catch(() => {})));
    await closed;
  };
  if (!stopping) process.stderr.write(`listening on ${HOST}:${(http.address() as AddressInfo).port}\n`);
}

async function main(): Promise<void> {
  process.once("SIGTERM", shutdown);
  process.once("SIGINT", shutdown);
  installProfileWindow(); // only with WIRECOST_PROFILE_OUT set (a profiled per-call trial)
  const args = targetArgs("mcp-ts-v1");
  let config: TargetConfig;
  try {
    config = configFromEnv();
  } catch (e) {
    if (e instanceof ConfigError) usageError("mcp-ts-v1", e.message);
    throw e;
  }
  if (args.transport === "stdio") return serveStdio(config);
  return serveHttp(config, args.port);
}

main().catch((e: unknown) => {
  process.stderr.write(`mcp-ts-v1: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
