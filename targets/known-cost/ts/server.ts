/**
 * wirecost test target with known costs (TypeScript; the profile-window contract of issue 25,
 * README "How to read a stage table"): a minimal MCP server over stdio (newline-delimited
 * JSON-RPC 2.0) and Streamable HTTP (POST /mcp answered with `application/json`, 127.0.0.1 only)
 * on Node's standard library, whose every `tools/call` runs, in this order,
 * `parse_and_validate` (1,500 µs), `do_work` (1,000 µs) and `build_result` (500 µs) of CPU time,
 * overridable by `WIRECOST_KNOWN_COSTS=parse_and_validate=1500,do_work=1000,build_result=500` (µs),
 * so the stage attribution is tested against a known answer (test/attribution/known-cost.test.ts).
 *
 *   node dist/targets/known-cost/ts/server.js --transport stdio
 *   node dist/targets/known-cost/ts/server.js --transport http --port N
 *
 * Each function spins on this process's CPU clock (`process.cpuUsage()`: Node 20 has no thread
 * clock; the process is one busy thread here), with pure arithmetic between clock reads so the
 * reads' system time stays small. With WIRECOST_PROFILE_OUT set it samples itself over the signal
 * window (targets/common/profile-window.ts). Exit status: 0 at end of stdin or on SIGTERM, 2 on bad
 * arguments or a bad WIRECOST_KNOWN_COSTS.
 */
import { createServer } from "node:http";
import { createInterface } from "node:readline";
import { targetArgs, usageError } from "../../common/cli.js";
import { installProfileWindow } from "../../common/profile-window.js";

const NAME = "known-cost-ts";
const REVISIONS = ["2025-06-18", "2025-11-25"];
const DEFAULT_COSTS = { parse_and_validate: 1500, do_work: 1000, build_result: 500 };
type Costs = typeof DEFAULT_COSTS;

/** The costs from `WIRECOST_KNOWN_COSTS` (µs), defaults for the names it does not give. Exits 2 on a bad value. */
function costsFromEnv(raw: string | undefined): Costs {
  const costs = { ...DEFAULT_COSTS };
  if (!raw) return costs;
  for (const item of raw.split(",")) {
    const [k, v] = item.split("=");
    if (!(k! in costs) || !/^\d+$/.test(v ?? ""))
      usageError(NAME, `WIRECOST_KNOWN_COSTS item "${item}": use name=µs with names ${Object.keys(costs).join(", ")}`);
    costs[k as keyof Costs] = Number(v);
  }
  return costs;
}

let sink = 0;
/** Spin until `us` µs of this process's CPU time (user + system) have passed. */
function spin(us: number): void {
  const cpu = (): number => {
    const c = process.cpuUsage();
    return c.user + c.system;
  };
  const end = cpu() + us;
  while (cpu() < end) for (let i = 0; i < 20000; i++) sink = (sink * 31 + i) % 1000003;
}

function parse_and_validate(costs: Costs): void {
  spin(costs.parse_and_validate);
}
function do_work(costs: Costs): void {
  spin(costs.do_work);
}
function build_result(costs: Costs): void {
  spin(costs.build_result);
}

const TOOLS = [
  {
    name: "search_tickets",
    description: "Search tickets (known cost).",
    inputSchema: { type: "object", properties: { query: { type: "string" }, limit: { type: "integer" } }, required: ["query"] },
  },
  {
    name: "get_tickets",
    description: "Get tickets by id (known cost).",
    inputSchema: { type: "object", properties: { ids: { type: "array", items: { type: "integer" } } }, required: ["ids"] },
  },
];

type Message = { jsonrpc?: string; id?: string | number | null; method?: string; params?: Record<string, unknown> };

/** The answer to one JSON-RPC message, or undefined for a notification. */
function answer(msg: Message, costs: Costs): object | undefined {
  if (msg.id === undefined) return undefined;
  const ok = (result: object): object => ({ jsonrpc: "2.0", id: msg.id, result });
  switch (msg.method) {
    case "initialize": {
      const asked = String(msg.params?.protocolVersion ?? "");
      return ok({
        protocolVersion: REVISIONS.includes(asked) ? asked : REVISIONS.at(-1),
        capabilities: { tools: {} },
        serverInfo: { name: NAME, version: "1" },
      });
    }
    case "ping":
      return ok({});
    case "tools/list":
      return ok({ tools: TOOLS });
    case "tools/call": {
      parse_and_validate(costs);
      do_work(costs);
      build_result(costs);
      return ok({ content: [{ type: "text", text: `known cost: ${costs.parse_and_validate + costs.do_work + costs.build_result} µs` }] });
    }
    default:
      return { jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: `method not found: ${msg.method}` } };
  }
}

/** One message's text → the answer's text, or undefined. */
function handle(text: string, costs: Costs): string | undefined {
  let msg: Message;
  try {
    msg = JSON.parse(text) as Message;
  } catch {
    return JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "parse error" } });
  }
  const a = answer(msg, costs);
  return a === undefined ? undefined : JSON.stringify(a);
}

function main(): void {
  installProfileWindow(); // only with WIRECOST_PROFILE_OUT set
  const args = targetArgs(NAME);
  const costs = costsFromEnv(process.env.WIRECOST_KNOWN_COSTS);
  process.on("SIGTERM", () => process.exit(0));
  if (args.transport === "stdio") {
    const lines = createInterface({ input: process.stdin });
    lines.on("line", (line) => {
      if (line.trim() === "") return;
      const out = handle(line, costs);
      if (out !== undefined) process.stdout.write(out + "\n");
    });
    lines.on("close", () => process.exit(0));
    return;
  }
  const server = createServer((req, res) => {
    if (req.method !== "POST" || req.url !== "/mcp") {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const out = handle(Buffer.concat(chunks).toString("utf8"), costs);
      if (out === undefined) res.writeHead(202).end();
      else res.writeHead(200, { "Content-Type": "application/json" }).end(out);
    });
  });
  server.listen(args.port, "127.0.0.1", () => {
    const a = server.address();
    process.stderr.write(`listening on 127.0.0.1:${typeof a === "object" && a ? a.port : args.port}\n`);
  });
}

main();
