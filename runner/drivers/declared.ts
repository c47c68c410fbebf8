/**
 * Clients declared in the matrix (`clients:`, README "Measure your own client"): a command the
 * runner starts once per run. Over HTTP it is given `{url}`, the relay in front of the target;
 * over stdio it starts the target itself through `{stdio}`, a wrapper that runs the target
 * through the stdio tap (`wirecost capture --log LOG -- TARGET ARGV`, bin/commands/capture.ts),
 * so the capture log is the same format either way. Its exit status, stdout and stderr are kept
 * with the run (format/layout.ts clientOutputPathOf); it fails the run when it exits non-zero
 * or hangs (the run's time limit), and runOne fails it when it exits 0 having sent nothing.
 */
import { createWriteStream } from "node:fs";
import { resolve } from "node:path";
import { CLIENT_OUTPUT_MAX_BYTES, clientOutputPathOf } from "../../format/layout.js";
import type { FlowStep } from "../matrix/flows.js";
import type { DeclaredClient, TargetCommand } from "../matrix/types.js";
import { substitute } from "../matrix/placeholders.js";
import { repoRoot } from "../paths.js";
import { startTarget, stderrExcerpt, type TargetProcess } from "../targets/process.js";

/** How long the processes a client started (the tap wrapper, the target) have to end after it exits before they are stopped, milliseconds. */
export const CLIENT_LEFTOVER_GRACE_MS = 5000;

/** A started declared client. */
export interface ClientRun {
  /** The client's process (group leader; its group holds what it started). */
  proc: TargetProcess;
  /**
   * Resolves when the client exited and what it started ended (or was stopped after
   * {@link CLIENT_LEFTOVER_GRACE_MS}), its output files written.
   * @throws ClientFailed when it exited non-zero or by a signal
   */
  done: Promise<void>;
  /** One-line excerpt of its stderr ("" when it wrote none). */
  stderrExcerpt(): string;
}

/** Thrown when a declared client exits non-zero or is killed: the message names it, its exit and its stderr excerpt. */
export class ClientFailed extends Error {
  override name = "ClientFailed";
}

/** Escape `{` and `}` so that the per-run substitution leaves an argv item as it is. */
function literal(text: string): string {
  return text.replace(/[{}]/g, (c) => c + c);
}

/**
 * The argv items `{stdio}` stands for: `env` with the target's environment (its `env:` and the
 * `WIRECOST_<AXIS>` variables, which a client may not pass on to the server it starts), then this
 * wirecost's `capture --quiet --limit-mib N --log LOG --` (no summary line in the client's stderr) and the
 * target's argv, every item already substituted.
 * @param target the target's stdio command; argv[0] `node` means this Node binary
 * @param limitBytes the capture's limit of application bytes (`capture --limit-mib`), bytes
 */
export function stdioWrapper(target: TargetCommand, values: Record<string, string>, logPath: string, limitBytes: number): string[] {
  const argv = target.argv.map((a) => substitute(a, values));
  if (argv[0] === "node") argv[0] = process.execPath;
  const env = [
    ...Object.entries(values).map(([k, v]) => `WIRECOST_${k.toUpperCase()}=${v}`),
    ...Object.entries(target.env).map(([k, v]) => `${k}=${substitute(v, values)}`),
  ];
  return [
    "env",
    ...env,
    process.execPath,
    resolve(repoRoot, "dist/bin/wirecost.js"),
    "capture",
    "--quiet",
    "--limit-mib",
    String(limitBytes / (1024 * 1024)),
    "--log",
    resolve(logPath),
    "--",
    ...argv,
  ];
}

/**
 * The client's command for one run: `{stdio}` and `{flowargs}` items replaced by their items,
 * other placeholders (`{url}`, axes) left for the per-run substitution. A target declaring `tool:`
 * adds `WIRECOST_TOOL_NAME` (the tool's name) and `WIRECOST_TOOL_ARGUMENTS` (its arguments, compact
 * JSON) to the client's environment, for a client that calls the tool its target names
 * (clients/mcp-py/client.py does), and the flow's steps (the matrix's `flows:`) go in
 * `WIRECOST_FLOW_STEPS` (JSON, the shapes of runner/matrix/flows.ts) for a client that runs them.
 * @param splices `stdio`: the wrapper's argv (stdio transport); `tool`: the target's `tool:`; `steps`: the flow's steps
 * @throws Error when the client declares no command for `transport` or no args for `flow` (expand refuses such cells first)
 */
export function clientCommand(
  client: DeclaredClient,
  transport: "stdio" | "http",
  flow: string,
  splices: { stdio?: string[]; tool?: { name: string; arguments: Record<string, unknown> }; steps?: FlowStep[] },
): TargetCommand {
  const cmd = client.commands[transport];
  if (!cmd) throw new Error(`client ${client.name} declares no ${transport} command`);
  const flowArgs = client.flows[flow];
  if (!flowArgs) throw new Error(`client ${client.name} declares no flow ${flow} (flows: ${Object.keys(client.flows).join(", ")})`);
  const argv: string[] = [];
  for (const a of cmd.argv) {
    if (a === "{flowargs}") argv.push(...flowArgs);
    else if (a === "{stdio}") argv.push(...(splices.stdio ?? []).map(literal));
    else argv.push(a);
  }
  if (!cmd.argv.includes("{flowargs}")) argv.push(...flowArgs);
  const env = { ...cmd.env };
  if (splices.tool) {
    env.WIRECOST_TOOL_NAME = literal(splices.tool.name);
    env.WIRECOST_TOOL_ARGUMENTS = literal(JSON.stringify(splices.tool.arguments));
  }
  if (splices.steps) env.WIRECOST_FLOW_STEPS = literal(JSON.stringify(splices.steps));
  return { argv, env };
}

/** Is any process of group `pgid` still there? */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Start a declared client for one run and keep its output beside `logPath`.
 * @param values the configuration's axis values plus `url` (HTTP), substituted into argv and env
 * @param cwd working folder (the matrix file's folder)
 */
export function startClient(client: DeclaredClient, cmd: TargetCommand, values: Record<string, string>, cwd: string, logPath: string): ClientRun {
  const proc = startTarget(cmd, values, cwd);
  let stderr = "";
  const keep = (stream: NodeJS.ReadableStream | null | undefined, which: "stdout" | "stderr") => {
    const file = createWriteStream(clientOutputPathOf(logPath, which));
    let kept = 0;
    stream?.on("data", (d: Buffer) => {
      if (which === "stderr") stderr = (stderr + d.toString("utf8")).slice(-8192);
      if (kept >= CLIENT_OUTPUT_MAX_BYTES) return;
      const part = d.subarray(0, CLIENT_OUTPUT_MAX_BYTES - kept);
      kept += part.length;
      file.write(part);
    });
    return new Promise<void>((res) => {
      const end = () => file.end(() => res());
      if (!stream) end();
      else {
        stream.once("end", end);
        stream.once("error", end);
      }
    });
  };
  const outputs = Promise.all([keep(proc.child.stdout, "stdout"), keep(proc.child.stderr, "stderr")]);
  proc.child.stdin?.on("error", () => undefined);
  proc.child.stdin?.end(); // a client reads nothing from the runner
  const done = (async () => {
    // Its exit, not the end of its stdout and stderr: a process it left behind (in the background)
    // may hold them open; that one is stopped with the group below.
    await Promise.race([proc.child.catch(() => undefined), new Promise((res) => proc.child.once("exit", res))]);
    // What it started (the tap wrapper, the target) gets a moment to end and flush the log.
    const until = Date.now() + CLIENT_LEFTOVER_GRACE_MS;
    while (proc.pid > 0 && groupAlive(proc.pid) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    await proc.stop();
    await outputs;
    const exit = proc.exit() ?? "";
    const spawnError = proc.spawnError();
    const tail = stderrExcerpt(stderr);
    if (spawnError) throw new ClientFailed(`cannot start client ${client.name} (${cmd.argv[0]}): ${spawnError}`);
    if (exit !== "0")
      throw new ClientFailed(`client ${client.name} exited ${/^\d+$/.test(exit) ? exit : `by ${exit}`}${tail ? ` | client stderr: ${tail}` : ""}`);
  })();
  return { proc, done, stderrExcerpt: () => stderrExcerpt(stderr) };
}
