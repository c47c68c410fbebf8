/**
 * Streamable HTTP serving for the mcp-ts-v2 target: `createMcpHandler` for
 * 2026-07-28 traffic, mounted on plain `node:http` with `toNodeHandler` from
 * `@modelcontextprotocol/node`, bound to 127.0.0.1 only.
 *
 * 2025-era traffic goes, by default, to a sessionful streamable HTTP transport
 * (one `McpServer` per `Mcp-Session-Id`), routed with the SDK's own
 * `isLegacyRequest` predicate in front of a `legacy: 'reject'` handler — the
 * composition the SDK documents. That is what lets `confirm` send its
 * `elicitation/create` on a 2025-era connection: the handler's default
 * per-request legacy serving has no return path for server→client requests.
 * `legacy: 'stateless'` keeps the handler's default instead.
 */
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { WebStandardStreamableHTTPServerTransport, createMcpHandler, isLegacyRequest } from "@modelcontextprotocol/server";
import type { McpHandlerRequestOptions, McpServer } from "@modelcontextprotocol/server";
import { localhostHostValidation, localhostOriginValidation, toNodeHandler } from "@modelcontextprotocol/node";
import type { FetchLikeMcpHandler } from "@modelcontextprotocol/node";
import { createTargetServer, targetFactory } from "./factory.js";
import type { TargetConfig } from "./factory.js";

/** The only address the target listens on. */
export const HTTP_HOST = "127.0.0.1";

/**
 * How 2025-era (claim-less) HTTP traffic is served:
 * `session` — a sessionful streamable HTTP transport per `initialize` (the default; elicitation works);
 * `stateless` — `createMcpHandler`'s own per-request stateless fallback (no session id, no elicitation).
 */
export type LegacyHttpMode = "session" | "stateless";

/** Options for {@link startHttpTarget}. */
export interface HttpTargetOptions {
  /** TCP port on 127.0.0.1; 0 lets the OS choose. */
  port: number;
  /** Tools and knobs served. */
  config: TargetConfig;
  /** How 2025-era traffic is served; see {@link LegacyHttpMode}. */
  legacy: LegacyHttpMode;
  /** Out-of-band errors and rejected requests (never alters what goes on the wire). */
  onerror?: (error: Error) => void;
}

/** A listening HTTP target. */
export interface RunningHttpTarget {
  /** The port actually bound (the OS's choice when 0 was asked for). */
  port: number;
  /** Stops listening, drops open connections and closes every server instance. */
  close(): Promise<void>;
}

interface LegacySession {
  transport: WebStandardStreamableHTTPServerTransport;
  server: McpServer;
}

function sessionNotFound(): Response {
  return Response.json({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }, { status: 404 });
}

/** Starts the HTTP target and resolves once it is listening. */
export async function startHttpTarget(options: HttpTargetOptions): Promise<RunningHttpTarget> {
  const { config, onerror } = options;
  const modern = createMcpHandler(targetFactory(config), {
    legacy: options.legacy === "stateless" ? "stateless" : "reject",
    ...(onerror !== undefined && { onerror }),
  });

  const sessions = new Map<string, LegacySession>();
  const legacyFetch = async (request: Request): Promise<Response> => {
    const sessionId = request.headers.get("mcp-session-id");
    if (sessionId !== null) {
      const session = sessions.get(sessionId);
      return session === undefined ? sessionNotFound() : session.transport.handleRequest(request);
    }
    const server = createTargetServer(config);
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server });
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
      },
    });
    if (onerror !== undefined) server.server.onerror = onerror;
    await server.connect(transport);
    const response = await transport.handleRequest(request);
    // Anything but an initialize without a session id is refused by the transport: drop the instance.
    if (transport.sessionId === undefined) await server.close();
    return response;
  };

  const composed: FetchLikeMcpHandler =
    options.legacy === "stateless"
      ? modern
      : {
          fetch: async (request: Request, requestOptions?: McpHandlerRequestOptions) =>
            (await isLegacyRequest(request)) ? legacyFetch(request) : modern.fetch(request, requestOptions),
        };
  const nodeHandler = toNodeHandler(composed, onerror === undefined ? {} : { onerror });
  const validateHost = localhostHostValidation();
  const validateOrigin = localhostOriginValidation();

  const httpServer = createServer((req, res) => {
    if (!validateHost(req, res) || !validateOrigin(req, res)) return;
    void nodeHandler(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(options.port, HTTP_HOST, () => {
      httpServer.off("error", reject);
      resolve();
    });
  });
  const port = (httpServer.address() as AddressInfo).port;

  return {
    port,
    close: async () => {
      const closed = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      httpServer.closeAllConnections();
      await modern.close();
      await Promise.all([...sessions.values()].map((s) => s.server.close().catch(() => {})));
      sessions.clear();
      await closed;
    },
  };
}
