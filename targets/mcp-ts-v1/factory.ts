/**
 * The wirecost MCP target on SDK v1 (`@modelcontextprotocol/sdk` 1.x): the same tools, names and
 * descriptions as mcp-ts-v2 (targets/mcp-ts-v2/factory.ts), so `tools/list` bodies compare byte
 * for byte where the SDKs agree. `confirm` asks with the 2025-era `elicitation/create`
 * server→client request (`server.elicitInput`); v1 has no 2026-07-28 `input_required` result.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";
import { CONFIRM_MESSAGE, FILLER_DESCRIPTION, readCount } from "../common/config.js";

/** Server name reported in the `initialize` result. */
export const SERVER_NAME = "wirecost-mcp-ts-v1";
/** Server version: fixed, so it never changes the byte counts. */
export const SERVER_VERSION = "1.0.0";
export { CONFIRM_MESSAGE, ConfigError, FILLER_DESCRIPTION } from "../common/config.js";

/** Knobs read from the environment. */
export interface TargetConfig {
  /** Tools listed by `tools/list` (`WIRECOST_CATALOG`, default 3, at least 1). */
  catalogSize: number;
}

/**
 * Read {@link TargetConfig} from `WIRECOST_CATALOG`.
 * @throws ConfigError when the value is not a whole number >= 1
 */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): TargetConfig {
  return { catalogSize: readCount(env, "WIRECOST_CATALOG", 3, 1) };
}

function text(value: string): CallToolResult {
  return { content: [{ type: "text", text: value }] };
}

/** One McpServer with the first `catalogSize` of `echo, add, confirm, tool_4, …`. */
export function createTargetServer(config: TargetConfig): McpServer {
  const server = new McpServer({ name: SERVER_NAME, version: SERVER_VERSION }, { capabilities: { tools: {} } });
  const tools: Array<() => void> = [
    () => server.registerTool("echo", { description: "Echo the text back.", inputSchema: { text: z.string() } }, async ({ text: v }) => text(v)),
    () =>
      server.registerTool("add", { description: "Add two numbers.", inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => text(String(a + b))),
    () =>
      server.registerTool("confirm", { description: "Ask the user a yes/no question.", inputSchema: {} }, async (_args, extra) => {
        // relatedRequestId: over Streamable HTTP the request goes on the call's own SSE response
        // (without it the SDK would use the standalone GET stream, which no driver opens).
        const answer = await server.server.elicitInput(
          {
            mode: "form",
            message: CONFIRM_MESSAGE,
            requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] },
          },
          { relatedRequestId: extra.requestId },
        );
        const yes = answer.action === "accept" && answer.content?.confirm === true;
        return text(yes ? "confirmed: yes" : "confirmed: no");
      }),
  ];
  for (let k = tools.length + 1; k <= config.catalogSize; k++) {
    tools.push(() => server.registerTool(`tool_${k}`, { description: FILLER_DESCRIPTION, inputSchema: { text: z.string() } }, async ({ text: v }) => text(v)));
  }
  for (const register of tools.slice(0, config.catalogSize)) register();
  if (process.env.WIRECOST_WORKLOAD === "tickets") registerTicketTools(server);
  return server;
}

/**
 * The per-call workload tools (targets/workload/tickets.ts), registered only when
 * `WIRECOST_WORKLOAD=tickets`, after the catalog, so the default catalog's bytes never change.
 */
function registerTicketTools(server: McpServer): void {
  // Loaded on first call (then cached), so targets without the workload never load SQLite.
  const workload = () => import("../workload/tickets.js");
  server.registerTool(
    "search_tickets",
    { description: "Search support tickets.", inputSchema: { query: z.string(), limit: z.number().int() } },
    async ({ query, limit }) => {
      const { ticketStore, ticketsText } = await workload();
      return text(ticketsText(ticketStore().searchTickets(query, limit)));
    },
  );
  server.registerTool("get_tickets", { description: "Get support tickets by id.", inputSchema: { ids: z.array(z.number().int()) } }, async ({ ids }) => {
    const { ticketStore, ticketsText } = await workload();
    return text(ticketsText(ticketStore().getTickets(ids)));
  });
}
