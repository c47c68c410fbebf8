/**
 * wirecost target: an MCP server on `@modelcontextprotocol/server` 2.x.
 *
 *   node dist/targets/mcp-ts-v2/server.js --transport stdio
 *   node dist/targets/mcp-ts-v2/server.js --transport http --port N
 *
 * stdio is served by `serveStdio` (both 2025-11-25 and 2026-07-28, the
 * connection's era chosen by its first message); HTTP by `createMcpHandler`
 * on 127.0.0.1 only (see http.ts). Environment knobs: `WIRECOST_CATALOG`,
 * `WIRECOST_STATE_BYTES` (factory.ts), `WIRECOST_LEGACY_HTTP=session|stateless`
 * (http.ts), `WIRECOST_DEBUG=1` (SDK error reports on stderr).
 * Exit status: 0 on SIGTERM/SIGINT or end of stdin, 2 on bad arguments or
 * configuration, 1 on a start-up failure.
 */
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { targetArgs, usageError as exitUsage } from "../common/cli.js";
import { installProfileWindow } from "../common/profile-window.js";
import { ConfigError, configFromEnv, targetFactory } from "./factory.js";
import type { TargetConfig } from "./factory.js";
import { HTTP_HOST, startHttpTarget } from "./http.js";
import type { LegacyHttpMode } from "./http.js";

const usageError = (message: string): never => exitUsage("mcp-ts-v2", message);

function legacyModeFromEnv(): LegacyHttpMode {
  const raw = process.env["WIRECOST_LEGACY_HTTP"];
  if (raw === undefined || raw === "" || raw === "session") return "session";
  if (raw === "stateless") return "stateless";
  return usageError(`WIRECOST_LEGACY_HTTP=${raw} is not valid: set it to session or stateless`);
}

const onerror = process.env["WIRECOST_DEBUG"] === "1" ? (error: Error) => process.stderr.write(`mcp-ts-v2: ${error.message}\n`) : undefined;

/** What SIGTERM/SIGINT/end of stdin stop; set once a transport is serving. */
let stopServing: (() => Promise<void>) | undefined;
let stopping = false;

function shutdown(): void {
  if (stopping) return;
  stopping = true;
  Promise.resolve(stopServing?.())
    .catch(() => {})
    .finally(() => process.exit(0));
}

function serveOverStdio(config: TargetConfig): void {
  const handle = serveStdio(targetFactory(config), onerror === undefined ? {} : { onerror });
  stopServing = () => handle.close();
  // The transport also closes itself on end of stdin; exiting here makes sure nothing keeps the process alive.
  process.stdin.once("end", shutdown);
}

async function serveOverHttp(config: TargetConfig, port: number): Promise<void> {
  const target = await startHttpTarget({
    port,
    config,
    legacy: legacyModeFromEnv(),
    ...(onerror !== undefined && { onerror }),
  });
  stopServing = () => target.close();
  if (stopping) return;
  process.stderr.write(`listening on ${HTTP_HOST}:${target.port}\n`);
}

async function main(): Promise<void> {
  process.once("SIGTERM", shutdown);
  process.once("SIGINT", shutdown);
  installProfileWindow(); // only with WIRECOST_PROFILE_OUT set (a profiled per-call trial)
  const args = targetArgs("mcp-ts-v2");
  let config: TargetConfig;
  try {
    config = configFromEnv();
  } catch (error) {
    if (error instanceof ConfigError) usageError(error.message);
    throw error;
  }
  if (args.transport === "stdio") serveOverStdio(config);
  else await serveOverHttp(config, args.port);
}

main().catch((error: unknown) => {
  process.stderr.write(`mcp-ts-v2: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
