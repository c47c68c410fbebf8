/**
 * The command line every wirecost target shares: `--transport stdio | --transport http [--port N]`,
 * and the usage error that ends a target with exit code 2 (a bad command line, not a crash).
 */
import { parseArgs } from "node:util";

/** What a target was asked to serve: stdio, or HTTP on a port of 127.0.0.1 (0 = the OS picks). */
export type TargetArgs = { transport: "stdio" } | { transport: "http"; port: number };

const USAGE = "usage: server.js --transport stdio | --transport http [--port N]";

/** Print `<target>: <message>` and the usage line to stderr, then exit 2. */
export function usageError(target: string, message: string): never {
  process.stderr.write(`${target}: ${message}\n${USAGE}\n`);
  process.exit(2);
}

/**
 * Parse the target command line.
 * @param target the target's name, for messages (e.g. `mcp-ts-v2`)
 * @param argv arguments after the script (default: this process's)
 * Exits 2 via {@link usageError} on an unknown option, a missing or unknown transport, `--port`
 * with stdio, or a port outside 0–65535.
 */
export function targetArgs(target: string, argv: string[] = process.argv.slice(2)): TargetArgs {
  let values: { transport?: string | undefined; port?: string | undefined } = {};
  try {
    ({ values } = parseArgs({ args: argv, options: { transport: { type: "string" }, port: { type: "string" } }, strict: true, allowPositionals: false }));
  } catch (e) {
    usageError(target, e instanceof Error ? e.message : String(e));
  }
  if (values.transport === "stdio") {
    if (values.port !== undefined) usageError(target, "--port applies to --transport http only");
    return { transport: "stdio" };
  }
  if (values.transport === "http") {
    const raw = values.port ?? "0";
    if (!/^\d+$/.test(raw) || Number(raw) > 65535) usageError(target, `--port ${raw} is not a port: give a number from 0 to 65535`);
    return { transport: "http", port: Number(raw) };
  }
  return usageError(target, values.transport === undefined ? "--transport is required" : `unknown transport "${values.transport}": use stdio or http`);
}
