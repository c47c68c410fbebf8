/**
 * The per-call engine's MCP client: it starts one target process (stdio or HTTP) from the
 * matrix's target command (runner/targets/process.ts, the runner's one way to start a target),
 * and drives one session with the raw driver's {@link McpSession} (its message builders, ids,
 * revision handshake and `_meta` envelope) over a pipelining wire (runner/drivers/mcp/pipelined.ts),
 * so requests may overlap and each response is matched by id. No capture relay sits in between;
 * this client times, it does not count.
 */
import { McpSession } from "../drivers/mcp/session.js";
import { PipelinedHttpWire, PipelinedStdioWire } from "../drivers/mcp/pipelined.js";
import { ProtocolError } from "../drivers/types.js";
import { checkLoopbackOnly } from "../targets/binds.js";
import { freePort, startTarget, type TargetProcess } from "../targets/process.js";
import type { TargetCommand } from "../matrix/types.js";

/** How to start a target and which session to open. */
export interface ClientSpec {
  /** The matrix's command for this transport (`{port}` and axis placeholders substituted at start). */
  command: TargetCommand;
  /** Axis values of the configuration (substituted, and passed as `WIRECOST_<AXIS>`). */
  values: Record<string, string>;
  transport: "stdio" | "http";
  /** MCP revision, e.g. `2025-11-25` or `2026-07-28`. */
  revision: string;
  /** Working directory of the server process (the matrix file's folder). */
  cwd: string;
  /** Per-request and start-up timeout, milliseconds. */
  timeoutMs: number;
  /** Extra environment of the target process (literal values; e.g. WIRECOST_PROFILE_OUT for a profiled trial). */
  env?: Record<string, string>;
}

/** Start-up phases of one session, milliseconds from the spawn call (hrtime). */
export interface SetupTiming {
  /** Spawn to the process being ready to receive (HTTP: its listening line; stdio: the spawn call's return, nothing to wait for). */
  readyMs: number;
  /** Spawn to the session being open (2025 era: initialize answered and notifications/initialized sent; 2026-07-28: = readyMs). */
  openMs: number;
  /** Spawn to the tools/list answer. */
  listedMs: number;
  /** Spawn to the first tools/call answer: the first usable call. */
  firstCallMs: number;
}

const msSince = (t0: bigint): number => Number(process.hrtime.bigint() - t0) / 1e6;

/** One MCP session over one started target process. Call {@link McpCallClient.start}, then `callTool`, then `close`. */
export class McpCallClient implements CallClient {
  private proc?: TargetProcess;
  private session!: McpSession;
  private http?: PipelinedHttpWire;

  private constructor(private readonly spec: ClientSpec) {}

  /**
   * Spawn the target, open the session, list tools and make `firstCall`; returns the client and
   * the start-up timing.
   * @throws ProtocolError when the target exits, errs or times out during start-up
   */
  static async start(
    spec: ClientSpec,
    firstCall: { name: string; arguments: Record<string, unknown> },
  ): Promise<{ client: McpCallClient; setup: SetupTiming }> {
    const c = new McpCallClient(spec);
    const port = spec.transport === "http" ? await freePort() : 0;
    const t0 = process.hrtime.bigint();
    try {
      await c.spawn(port);
      const readyMs = msSince(t0);
      await c.session.open();
      const openMs = msSince(t0);
      await c.rpc("tools/list", {});
      const listedMs = msSince(t0);
      await c.callTool(firstCall.name, firstCall.arguments);
      return { client: c, setup: { readyMs, openMs, listedMs, firstCallMs: msSince(t0) } };
    } catch (e) {
      await c.close();
      throw e;
    }
  }

  /** Start the target (HTTP: on `port`) and open the raw session over it. */
  private async spawn(port: number): Promise<void> {
    const { proc, exited } = await spawnTarget(this.spec, port);
    this.proc = proc;
    if (this.spec.transport === "stdio") {
      const wire = new PipelinedStdioWire(proc.child.stdin!, proc.child.stdout!, this.spec.timeoutMs);
      void exited.then((e) => wire.failAll(e));
      this.session = new McpSession(wire, this.spec.revision);
      return;
    }
    this.http = new PipelinedHttpWire(port, "/mcp", this.spec.timeoutMs);
    this.session = new McpSession(this.http, this.spec.revision);
  }

  /**
   * Call a tool and return its result object.
   * @throws ProtocolError on a JSON-RPC error, a tool error (`isError`), or a timeout
   */
  async callTool(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.rpc("tools/call", { name, arguments: args });
  }

  /** Send one request and resolve with its `result`. @throws ProtocolError as {@link callTool} */
  async rpc(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    return (await this.session.request(method, params)).result!;
  }

  /** Pid of the target process (undefined before it started). */
  get serverPid(): number | undefined {
    return this.proc?.pid;
  }

  /**
   * Close the session and stop the target (stdio: end of stdin, then the process group's stop;
   * HTTP: SIGTERM, then SIGKILL after 3 s); resolves when it has exited.
   */
  async close(): Promise<void> {
    this.http?.close();
    if (this.proc) await stopTarget(this.proc, this.spec.transport);
  }
}

/** What the per-call engine times calls through: wirecost's thin client ({@link McpCallClient}) or a target's own SDK client (runner/percall/sdk-client.ts). */
export interface CallClient {
  /** Call a tool and return its result object. @throws ProtocolError on a JSON-RPC error, a tool error (`isError`), or a timeout */
  callTool(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Close the session and stop the target; resolves when it has exited. */
  close(): Promise<void>;
  /** Pid of the target process (undefined before it started). */
  readonly serverPid: number | undefined;
}

/**
 * Start the target of `spec` (HTTP: on `port`) and resolve once it can receive: stdio at once,
 * HTTP at its `listening on 127.0.0.1:PORT` line on stderr.
 * @returns the process, and a promise that resolves (never rejects) with the error to report once it exits
 * @throws ProtocolError when an HTTP target exits or prints no listening line within `spec.timeoutMs`
 */
export async function spawnTarget(spec: ClientSpec, port: number): Promise<{ proc: TargetProcess; exited: Promise<ProtocolError> }> {
  const { command, values, transport, cwd, timeoutMs } = spec;
  const literal = (v: string): string => v.replaceAll("{", "{{").replaceAll("}", "}}");
  const env = { ...command.env, ...Object.fromEntries(Object.entries(spec.env ?? {}).map(([k, v]) => [k, literal(v)])) };
  const proc = startTarget({ ...command, env }, transport === "http" ? { ...values, port: String(port) } : values, cwd);
  const child = proc.child;
  child.stdin!.on("error", () => {});
  const exited = child.then(() => new ProtocolError(`target exited (${proc.exit() ?? "?"}): ${proc.spawnError() ?? proc.stderrExcerpt()}`));
  if (transport === "stdio") return { proc, exited };
  let err = "";
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new ProtocolError(`no listening line within ${timeoutMs} ms: ${proc.stderrExcerpt()}`)), timeoutMs);
      child.stderr!.on("data", (d: Buffer) => {
        err += d.toString();
        if (/listening on 127\.0\.0\.1:\d+/.test(err)) {
          clearTimeout(timer);
          try {
            checkLoopbackOnly(port);
            resolve();
          } catch (e) {
            reject(new ProtocolError((e as Error).message));
          }
        }
      });
      void exited.then((e) => {
        clearTimeout(timer);
        reject(e);
      });
    });
  } catch (e) {
    await proc.stop(3000);
    throw e;
  }
  return { proc, exited };
}

/**
 * Stop a target started by {@link spawnTarget} (stdio: end of stdin, up to 3 s to exit, then the
 * process group's stop; HTTP: SIGTERM, then SIGKILL after 3 s); resolves when it has exited.
 */
export async function stopTarget(proc: TargetProcess, transport: "stdio" | "http"): Promise<void> {
  if (transport === "stdio" && proc.exit() === undefined) {
    proc.child.stdin!.end();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([proc.child, new Promise((r) => (timer = setTimeout(r, 3000)))]);
    clearTimeout(timer);
  }
  await proc.stop(3000);
}
