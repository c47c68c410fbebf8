/**
 * The wirecost MCP target on SDK v2: the tools it serves and the per-instance
 * server factory that both serving entries (`serveStdio`, `createMcpHandler`)
 * call. Everything that reaches the wire from here is fixed text, so the bytes
 * are deterministic for a given configuration.
 */
import { McpServer, inputRequired, inputResponse } from "@modelcontextprotocol/server";
import type { CallToolResult, McpServerFactory } from "@modelcontextprotocol/server";
import * as z from "zod";
import { CONFIRM_MESSAGE, FILLER_DESCRIPTION, readCount } from "../common/config.js";

/** Server name reported in `serverInfo` (2025 `initialize` result, 2026 `server/discover`). */
export const SERVER_NAME = "wirecost-mcp-ts-v2";
/** Server version reported in `serverInfo`: fixed, so it never changes the byte counts. */
export const SERVER_VERSION = "1.0.0";

export { CONFIRM_MESSAGE, ConfigError, FILLER_DESCRIPTION } from "../common/config.js";
/** Key of the one embedded input request `confirm` issues on 2026-07-28 (`inputRequests.confirm`). */
export const CONFIRM_INPUT_KEY = "confirm";
/** Alphabet the `requestState` filler cycles through (base64url characters, no JSON escaping needed). */
const STATE_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** Knobs that change what the target serves; read from the environment by {@link configFromEnv}. */
export interface TargetConfig {
  /** Number of tools listed by `tools/list` (`WIRECOST_CATALOG`, default 3, at least 1). */
  catalogSize: number;
  /** Size in bytes of the `requestState` `confirm` attaches to its `input_required` result (`WIRECOST_STATE`, or `WIRECOST_STATE_BYTES`; default 0 = none). */
  stateBytes: number;
}

/**
 * Reads {@link TargetConfig} from `WIRECOST_CATALOG` and `WIRECOST_STATE` (the matrix's `state`
 * axis, as the runner exports it; `WIRECOST_STATE_BYTES` is the older name, read when
 * `WIRECOST_STATE` is unset); throws {@link ConfigError} on bad values.
 */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): TargetConfig {
  const stateName = env["WIRECOST_STATE"] !== undefined && env["WIRECOST_STATE"] !== "" ? "WIRECOST_STATE" : "WIRECOST_STATE_BYTES";
  return {
    catalogSize: readCount(env, "WIRECOST_CATALOG", 3, 1),
    stateBytes: readCount(env, stateName, 0, 0),
  };
}

/** The deterministic `requestState` string of exactly `bytes` ASCII bytes (empty when 0). */
export function requestStateOf(bytes: number): string {
  let state = "";
  for (let i = 0; i < bytes; i++) state += STATE_ALPHABET[i % STATE_ALPHABET.length];
  return state;
}

function text(value: string): CallToolResult {
  return { content: [{ type: "text", text: value }] };
}

/**
 * Builds one {@link McpServer} with the target's tools. Both eras use the same
 * definition: `confirm` returns `inputRequired(...)`, which the SDK puts on the
 * wire as an `input_required` result on 2026-07-28 and turns into a real
 * `elicitation/create` server→client request on a 2025-era connection (the
 * SDK's legacy input-required shim).
 */
export function createTargetServer(config: TargetConfig): McpServer {
  const server = new McpServer({ name: SERVER_NAME, version: SERVER_VERSION }, { capabilities: { tools: {} } });
  const state = requestStateOf(config.stateBytes);
  const textInput = z.object({ text: z.string() });

  const tools: Array<() => void> = [
    () => server.registerTool("echo", { description: "Echo the text back.", inputSchema: textInput }, async ({ text: value }) => text(value)),
    () =>
      server.registerTool("add", { description: "Add two numbers.", inputSchema: z.object({ a: z.number(), b: z.number() }) }, async ({ a, b }) =>
        text(String(a + b)),
      ),
    () =>
      server.registerTool("confirm", { description: "Ask the user a yes/no question.", inputSchema: z.object({}) }, async (_args, ctx) => {
        const stateOk = state === "" || ctx.mcpReq.requestState<string>() === state;
        const answer = inputResponse(ctx.mcpReq.inputResponses, CONFIRM_INPUT_KEY);
        if (stateOk && answer.kind === "elicit") {
          const yes = answer.action === "accept" && answer.content?.["confirm"] === true;
          return text(yes ? "confirmed: yes" : "confirmed: no");
        }
        return inputRequired({
          inputRequests: {
            [CONFIRM_INPUT_KEY]: inputRequired.elicit({
              message: CONFIRM_MESSAGE,
              requestedSchema: {
                type: "object",
                properties: { confirm: { type: "boolean" } },
                required: ["confirm"],
              },
            }),
          },
          ...(state !== "" && { requestState: state }),
        });
      }),
  ];
  for (let k = tools.length + 1; k <= config.catalogSize; k++) {
    tools.push(() => server.registerTool(`tool_${k}`, { description: FILLER_DESCRIPTION, inputSchema: textInput }, async ({ text: value }) => text(value)));
  }
  for (const register of tools.slice(0, config.catalogSize)) register();
  if (process.env["WIRECOST_WORKLOAD"] === "tickets") registerTicketTools(server);
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
    { description: "Search support tickets.", inputSchema: z.object({ query: z.string(), limit: z.number().int() }) },
    async ({ query, limit }) => {
      const { ticketStore, ticketsText } = await workload();
      return text(ticketsText(ticketStore().searchTickets(query, limit)));
    },
  );
  server.registerTool(
    "get_tickets",
    { description: "Get support tickets by id.", inputSchema: z.object({ ids: z.array(z.number().int()) }) },
    async ({ ids }) => {
      const { ticketStore, ticketsText } = await workload();
      return text(ticketsText(ticketStore().getTickets(ids)));
    },
  );
}

/** The factory both serving entries call: a fresh {@link createTargetServer} per connection (stdio) or per request (HTTP). */
export function targetFactory(config: TargetConfig): McpServerFactory {
  return () => createTargetServer(config);
}
